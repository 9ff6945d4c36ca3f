import Bus
import ClockSeam
import Session
import SessionInterface
import SessionTestHarness
import SessionTestSupport

/// A live session dialling a hostile relay on 127.0.0.1 on the real clocks, its events recorded: the session's
/// path over real sockets, from the dial through the WebSocket to what the session makes of it.
enum LoopbackWorld {
    /// Runs `relay`, and a session in front dialling it with `configuration`, around `body`.
    static func run(
        _ relay: HostileRelay,
        configuration: SessionConfiguration,
        _ body: @Sendable (LiveSession, EventRecorder) async throws -> Void
    ) async throws {
        let events = EventBus<SessionEvent>()
        let session = LiveSession(
            dialer: RelayDialer(
                host: "127.0.0.1",
                port: relay.port,
                rendezvousSecret: [UInt8](repeating: 7, count: 32),
                clock: ContinuousClock(),
                wallClock: SystemWallClock()
            ),
            identity: SessionIdentity(
                appStaticPrivateKey: ScriptedBox.appPrivateKey,
                boxStaticPublicKey: ScriptedBox.staticPublicKey,
                payload: []
            ),
            configuration: configuration,
            clock: ContinuousClock(),
            wallClock: SystemWallClock(),
            random: SystemRandomSource(),
            log: DiscardingLogSink(),
            events: events
        )
        let recorder = EventRecorder(events.subscribe(), wallClock: SystemWallClock())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await relay.run() }
            group.addTask { try await session.run() }
            group.addTask { await recorder.run() }
            defer { group.cancelAll() }
            await session.setPhase(.active)
            try await body(session, recorder)
            await session.setPhase(.background)
            await relay.close()
        }
    }
}
