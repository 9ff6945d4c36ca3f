import FTWSessionInterface

/// Places one connection's box uptime on the wall clock by its smallest clock gap (``ClockGap``), with the id rings
/// remember it by.
struct BoxAnchor {
    /// Its id, unique within a trace: rings remember which anchor stamped their newest points.
    let id: UInt32
    /// The connection's smallest gap.
    private var clockGap: ClockGap

    /// Starts an anchor on the first frame of a connection (or after a reboot).
    init(connection: Int, id: UInt32, uptimeMs: Int64, gapMs: Int64) {
        self.id = id
        clockGap = ClockGap(connection: connection, uptimeMs: uptimeMs, gapMs: gapMs)
    }

    /// The connection it belongs to.
    var connection: Int { clockGap.connection }

    /// The gap of a frame, or nil when its numbers are out of any sane range.
    static func gap(arrivalMs: Int64, uptimeMs: Int64) -> Int64? {
        guard TraceSlot.validTimes.contains(uptimeMs), TraceSlot.validTimes.contains(arrivalMs) else { return nil }
        return arrivalMs - uptimeMs
    }

    /// Places a frame: keeps the smallest gap, or says the frame needs an anchor of its own.
    mutating func place(connection: Int, uptimeMs: Int64, gapMs: Int64) -> ClockGap.Placement {
        clockGap.place(connection: connection, uptimeMs: uptimeMs, gapMs: gapMs)
    }

    /// Where `uptimeMs` lands on the wall clock, or nil when that falls outside the stamps a trace accepts.
    func stamp(uptimeMs: Int64) -> Int64? {
        guard let stamp = clockGap.wallMs(uptimeMs: uptimeMs), TraceSlot.validTimes.contains(stamp) else { return nil }
        return stamp
    }
}
