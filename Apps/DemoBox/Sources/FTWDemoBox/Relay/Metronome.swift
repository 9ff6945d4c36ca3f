/// Time since the box started, on the injected clock, and sleeping until a point of it: the grid every pulse and
/// every delayed delivery is placed on, so nothing drifts and a simulation replays exactly.
struct Metronome: Sendable {
    private let elapsedNow: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    /// Starts counting now on `clock`.
    init<C: Clock<Duration>>(clock: C) {
        let start = clock.now
        elapsedNow = { start.duration(to: clock.now) }
        sleeper = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }

    /// Time since the start.
    var elapsed: Duration { elapsedNow() }

    /// Sleeps until `offset` after the start.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(until offset: Duration) async throws {
        try await sleeper(offset)
    }
}
