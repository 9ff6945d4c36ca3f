/// A clock whose sleeper's deadline can move later while it sleeps without waking it: what a watchdog that every
/// beat puts off needs, so that a steady stream of beats costs its sleeper no wake at all.
///
/// A plain `Clock` sleep has a fixed deadline, so a deadline that moves costs one wake each time the old one comes:
/// for the stream's gap rule (3.5 beats), a wake every three beats or so, each a task resumed and, on a live event
/// loop, a context switch and three system calls. Here the clock asks the sleeper how much time is left
/// (`remaining`, given how long it has slept, which the clock knows without another read of time) whenever it needs
/// to know, outside its own locks: before it waits for anything else and when the time it last heard of comes. A
/// sleeper whose time moved on sleeps on untouched; it wakes once `remaining` says nothing is left.
///
/// `remaining` is called from whatever thread drives the clock, so it must be cheap and `Sendable`. The clock may go
/// on waiting for the time it last heard of, so a deadline should only move later; an owner whose deadline moves
/// earlier starts another sleep.
public protocol MovingDeadlineClock: Clock<Duration> {
    /// Sleeps until `remaining` returns zero or less.
    ///
    /// - Parameter remaining: The time left until the deadline, given the time slept so far.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(whileRemaining remaining: @escaping @Sendable (_ slept: Duration) -> Duration) async throws
}
