/// One point as a ring stores it: plain bits, so a ring is one block reserved up front and an append copies
/// 24 bytes, with no reference counting and no allocation.
package struct TraceSlot: Sendable, Hashable, BitwiseCopyable {
    /// What a point is besides its time and value, in one byte.
    package struct Flags: OptionSet, Sendable, Hashable, BitwiseCopyable {
        package let rawValue: UInt8

        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Recorded live in this process (not read back from the ring file).
        package static let seen = Flags(rawValue: 1 << 0)
        /// The first point of its run.
        package static let startsRun = Flags(rawValue: 1 << 1)
        /// From the cloud feed rather than the box stream.
        package static let cloud = Flags(rawValue: 1 << 2)
        /// Seen, from the cloud: spelled out, because an option-set literal is built through a generic initialiser
        /// that allocates, and this is the append path.
        package static let seenFromCloud = Flags(rawValue: seen.rawValue | cloud.rawValue)
    }

    /// Wall-clock ms when the box took the reading.
    package var timeMs: Int64
    /// The reading.
    package var value: Int64
    /// The run's id.
    package var run: UInt32
    /// Seen, run start, source.
    package var flags: Flags

    /// Makes a slot.
    package init(timeMs: Int64, value: Int64, run: UInt32, flags: Flags) {
        self.timeMs = timeMs
        self.value = value
        self.run = run
        self.flags = flags
    }

    /// The stamps a trace accepts: from the epoch to about the year 37 000, so every difference of two stamps fits
    /// in an `Int64` and a stamp from a broken clock or a hostile feed never reaches the arithmetic.
    package static let validTimes: ClosedRange<Int64> = 0...(1 << 50)

    /// The source the flags name.
    package var source: TraceSource { flags.contains(.cloud) ? .cloud : .box }

    /// The point as the trace's callers see it.
    package var point: TracePoint {
        TracePoint(
            timeMs: timeMs,
            value: value,
            seen: flags.contains(.seen),
            startsRun: flags.contains(.startsRun),
            run: Int(run),
            source: source
        )
    }
}
