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
/// The times are whole nanoseconds in `Int64` (292 years either way), not `Duration`s: a live loop asks before each
/// of its waits, a few times a frame, and `Duration`'s 128-bit arithmetic and its conversion to the kernel's
/// milliseconds cost more than the rest of the ask.
///
/// `remaining` is called from whatever thread drives the clock, so it must be cheap and `Sendable`. The clock may go
/// on waiting for the time it last heard of, so a deadline should only move later; an owner whose deadline moves
/// earlier starts another sleep.
public protocol MovingDeadlineClock: Clock<Duration> {
    /// Sleeps until `remaining` returns zero or less.
    ///
    /// - Parameter remaining: The nanoseconds left until the deadline, given the nanoseconds slept so far.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(
        whileRemainingNanoseconds remaining: @escaping @Sendable (_ sleptNanoseconds: Int64) -> Int64
    )
        async throws
}
