import FTWClockSeam

/// What ``SessionState``'s rules read of the world: the wall clock (arrival times, the asks log, command ids), the
/// time since the session was made (the link's delay), and the jitter's source. Read only when a rule needs them, so
/// a frame pays for none it does not use; a test fixes all three.
struct SessionEnvironment: Sendable {
    let wallClock: any WallClock
    /// Time since the session was made, on its clock.
    let elapsed: @Sendable () -> Duration
    let random: any RandomSource
    /// The wall clock's now, in milliseconds since the Unix epoch.
    var nowMs: Int64 { wallClock.nowMs }
}
