public import FTWBus
public import FTWClockSeam
public import FTWSessionInterface

extension LiveSession {
    /// Makes a session on a queue of its own; nothing happens until ``run()`` runs and a phase in front is set.
    ///
    /// - Parameters:
    ///   - dialer: Opens carriers: `RelayDialer` to the relay, or the demo box's in-process dialer.
    ///   - identity: The keys and the handshake payload.
    ///   - configuration: What `hello` says and the numbers the rules run on.
    ///   - clock: Deadlines, backoffs and the display-frame wait.
    ///   - wallClock: Arrival times, the asks log, command ids.
    ///   - random: Backoff jitter and command ids.
    ///   - log: Where the asks log (category `asks`) and the connection's story (category `session`) go.
    ///   - events: The bus to publish on.
    public init(
        dialer: any CarrierDialer,
        identity: SessionIdentity,
        configuration: SessionConfiguration,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        random: any RandomSource,
        log: any LogSink,
        events: EventBus<SessionEvent>
    ) {
        self.init(
            dialer: dialer,
            identity: identity,
            configuration: configuration,
            clock: clock,
            wallClock: wallClock,
            random: random,
            log: log,
            events: events,
            executor: nil
        )
    }

    /// Where the session runs: the executor given at its making (shared with the models, so a frame's way from the
    /// session to them takes no hand-over), or a queue of its own.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }
}
