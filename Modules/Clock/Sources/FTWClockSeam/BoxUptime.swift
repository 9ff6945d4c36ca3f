/// Box uptime: milliseconds since the box's process started, read off an injected monotonic clock.
///
/// Every age the box reports (a source's `lastOkMs`, a lease's expiry, a command's `notValidAfterMs`) is measured
/// in this clock, never the wall clock, because a box without a real-time clock reads 1970 until NTP answers. The
/// demo box keeps one; a reboot is a new `BoxUptime` starting again near zero.
public struct BoxUptime: Sendable {
    private let clock: any Clock<Duration>
    private let start: any InstantProtocol<Duration>
    private let startMs: Int64

    /// Starts counting uptime now on `clock`, from `startMs` (a box that has already run a while starts above 0).
    public init<C: Clock<Duration>>(clock: C, startMs: Int64 = 0) {
        self.clock = clock
        self.start = clock.now
        self.startMs = startMs
    }

    /// Uptime now, in whole milliseconds.
    public var nowMs: Int64 {
        startMs + Self.elapsedMs(clock: clock, since: start)
    }

    private static func elapsedMs<C: Clock<Duration>>(clock: C, since start: any InstantProtocol<Duration>) -> Int64 {
        guard let start = start as? C.Instant else { return 0 }
        return start.duration(to: clock.now).wholeMilliseconds
    }
}
