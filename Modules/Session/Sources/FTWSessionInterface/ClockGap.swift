/// Places one connection's box uptime on the wall clock: uptime plus the smallest gap (arrival wall time minus uptime)
/// seen on it (cache.md §4). Every frame is delayed on its way by something, so the smallest gap belongs to the least
/// delayed frame and is the best guess of the offset between the two clocks. The one copy of the rule: the trace
/// stamps its points with it, the snapshot its fields.
package struct ClockGap: Sendable, Hashable {
    /// What placing a frame did.
    package enum Placement: Sendable, Hashable {
        /// The frame belongs on this gap; a positive `improvedByMs` means its gap was the smallest yet, so every
        /// stamp placed on it moves that much earlier.
        case placed(improvedByMs: Int64)
        /// The frame came on another connection, or the box rebooted (uptime went backwards): a new gap starts.
        case needsNewGap
    }

    /// The connection it belongs to.
    package let connection: Int
    /// The smallest gap seen so far.
    package private(set) var gapMs: Int64
    /// The newest uptime placed: a frame below it is from another boot.
    package private(set) var lastUptimeMs: Int64

    /// Starts on the first frame of a connection (or after a reboot).
    package init(connection: Int, uptimeMs: Int64, gapMs: Int64) {
        self.connection = connection
        self.gapMs = gapMs
        lastUptimeMs = uptimeMs
    }

    /// Places a frame: keeps the smallest gap, or says the frame needs a gap of its own.
    package mutating func place(connection: Int, uptimeMs: Int64, gapMs: Int64) -> Placement {
        guard connection == self.connection, uptimeMs >= lastUptimeMs else { return .needsNewGap }
        lastUptimeMs = uptimeMs
        guard gapMs < self.gapMs else { return .placed(improvedByMs: 0) }
        defer { self.gapMs = gapMs }
        return .placed(improvedByMs: self.gapMs - gapMs)
    }

    /// Where `uptimeMs` of this boot lands on the wall clock; nil for a stamp this gap cannot place: one above the
    /// newest uptime seen (another, earlier boot's, whose clock this gap does not know) or one that overflows.
    package func wallMs(uptimeMs: Int64) -> Int64? {
        guard uptimeMs <= lastUptimeMs else { return nil }
        let (stamp, overflow) = uptimeMs.addingReportingOverflow(gapMs)
        return overflow ? nil : stamp
    }
}
