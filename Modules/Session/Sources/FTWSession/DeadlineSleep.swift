package import FTWClockSeam

/// How a session's deadlines sleep on its clock: moved while asleep on a ``MovingDeadlineClock`` (the event loop's,
/// the simulated one), or woken at each end they slept to on another.
///
/// Said by whoever makes the clock, where its type is in sight, so the session never has to ask: the question
/// (`clock as? any MovingDeadlineClock`) is answered by a scan of every protocol conformance of the program, about
/// 0.57 M instructions when the answer is no, which a process paid in its first dial. A clock handed to a public
/// initialiser is asked once, at the first deadline.
package enum DeadlineSleep: Sendable {
    /// The clock moves a sleeper's deadline: a beat that puts the deadline off is a store, not a wake.
    case moving(any MovingDeadlineClock)
    /// The clock cannot: the deadline's task wakes at each end it slept to and sleeps on to the new one.
    case plain
    /// Not said: asked of the clock at the first deadline.
    case unasked

    /// The clock that moves the deadline while its task sleeps, when there is one; asks `clock` if unasked, once,
    /// and keeps the answer.
    mutating func movingClock(of clock: any Clock<Duration>) -> (any MovingDeadlineClock)? {
        if case .unasked = self {
            self = (clock as? any MovingDeadlineClock).map(Self.moving) ?? .plain
        }
        guard case .moving(let moving) = self else { return nil }
        return moving
    }
}
