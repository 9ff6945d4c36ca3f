/// Places one connection's box uptime on the wall clock: uptime plus the smallest gap seen on it.
///
/// The gap of a frame is its arrival wall time minus its uptime. Every frame is delayed on its way by something,
/// so the smallest gap belongs to the least delayed frame and is the best guess of the offset between the two
/// clocks; a frame 700 ms late then lands one second after the one before it, where its uptime puts it.
struct BoxAnchor {
    /// What placing a frame did to the anchor.
    enum Placement: Equatable {
        /// The frame belongs on this anchor; a positive `improvedByMs` means its gap was the smallest yet, so every
        /// stamp on the anchor moves that much earlier.
        case placed(improvedByMs: Int64)
        /// The frame came on another connection, or the box rebooted (uptime went backwards): a new anchor.
        case needsNewAnchor
    }

    /// The connection it belongs to.
    let connection: Int
    /// Its id, unique within a trace: rings remember which anchor stamped their newest points.
    let id: UInt32
    /// The smallest gap seen so far.
    private(set) var gapMs: Int64
    private var lastUptimeMs: Int64

    /// Starts an anchor on the first frame of a connection (or after a reboot).
    init(connection: Int, id: UInt32, uptimeMs: Int64, gapMs: Int64) {
        self.connection = connection
        self.id = id
        self.gapMs = gapMs
        self.lastUptimeMs = uptimeMs
    }

    /// The gap of a frame, or nil when its numbers are out of any sane range.
    static func gap(arrivalMs: Int64, uptimeMs: Int64) -> Int64? {
        guard TraceSlot.validTimes.contains(uptimeMs), TraceSlot.validTimes.contains(arrivalMs) else { return nil }
        return arrivalMs - uptimeMs
    }

    /// Places a frame: keeps the smallest gap, or says the frame needs an anchor of its own.
    mutating func place(connection: Int, uptimeMs: Int64, gapMs: Int64) -> Placement {
        guard connection == self.connection, uptimeMs >= lastUptimeMs else { return .needsNewAnchor }
        lastUptimeMs = uptimeMs
        guard gapMs < self.gapMs else { return .placed(improvedByMs: 0) }
        defer { self.gapMs = gapMs }
        return .placed(improvedByMs: self.gapMs - gapMs)
    }

    /// Where `uptimeMs` lands on the wall clock, or nil when that falls outside the stamps a trace accepts.
    func stamp(uptimeMs: Int64) -> Int64? {
        let (stamp, overflow) = uptimeMs.addingReportingOverflow(gapMs)
        guard !overflow, TraceSlot.validTimes.contains(stamp) else { return nil }
        return stamp
    }
}
