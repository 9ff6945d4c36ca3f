/// A deterministic world for scenarios and tests: a ``ManualClock`` and a ``SimulationExecutor`` that runs every
/// task of the world on one thread.
///
/// ``advance(by:)`` steps the clock from one sleeper's deadline to the next and, at each step, lets the world run
/// until it has nothing left to do, so a simulated hour of 1 Hz telemetry passes in a fraction of a second of real
/// time and every frame goes out in the same order on every run.
///
/// ```swift
/// let simulation = Simulation(originMs: 1_764_669_660_000)
/// await simulation.run { simulation in
///     // build modules with `simulation.clock` as both their Clock and their WallClock, start their services…
///     await simulation.advance(by: .seconds(30))
/// }
/// ```
///
/// ## Concurrency
/// Work started inside ``run(_:)`` with structured concurrency (child tasks, task groups, `async let`) inherits the
/// executor preference; so do the default actors it calls. Code that must stay deterministic starts no unstructured
/// tasks (a safety net keeps those on the simulation's thread too).
public final class Simulation: Sendable {
    /// The clock every module of the world is built with.
    public let clock: ManualClock

    /// The executor every task of the world runs on.
    public let executor: SimulationExecutor

    /// Makes a world whose wall clock starts at `originMs` (Unix ms).
    public init(originMs: Int64) {
        clock = ManualClock(originMs: originMs)
        executor = SimulationExecutor()
    }

    /// Runs `body` inside the world: it and everything it starts with structured concurrency run on the
    /// simulation's thread. The thread stops once `body` returns and the queue is drained.
    public func run<T: Sendable>(_ body: @Sendable (Simulation) async throws -> T) async rethrows -> T {
        defer { executor.shutdown() }
        return try await withTaskExecutorPreference(executor) {
            try await body(self)
        }
    }

    /// Lets the world run until nothing is left to do at the current instant.
    public func settle() async {
        await executor.untilIdle()
    }

    /// Moves time forward by `duration`, waking sleepers in deadline order and settling the world after each.
    public func advance(by duration: Duration) async {
        await advance(to: clock.now.advanced(by: duration))
    }

    /// Moves time forward to `instant`, waking sleepers in deadline order and settling the world after each.
    public func advance(to instant: ManualClock.Instant) async {
        await settle()
        while let next = clock.nextDeadline(notAfter: instant) {
            clock.advance(to: next)
            await settle()
        }
        clock.advance(to: instant)
        await settle()
    }
}
