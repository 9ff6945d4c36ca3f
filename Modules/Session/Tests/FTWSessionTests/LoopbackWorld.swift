import FTWBus
import FTWClockSeam
import FTWNoise
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import FTWSocketLoop
import FTWWebSocket

/// A live session dialling a hostile relay on 127.0.0.1 on the real clocks, its events recorded: the session's
/// path over real sockets, from the dial through the WebSocket to what the session makes of it.
///
/// The world runs on an event loop of its own, as a live client does: the session, the relay and the recorder keep
/// their thread while the test run's other suites hold the cooperative pool. On the pool, two busy neighbours on a
/// 2-core machine kept the relay from answering for over 2.5 s, and the session rightly redialled.
enum LoopbackWorld {
    /// Runs `relay`, and a session in front dialling it with `configuration`, around `body`; the phone's clock is
    /// `wallClock` and its box's rendezvous secret `rendezvousSecret`; the relay's host is `host`, whose addresses
    /// `resolver` gives (127.0.0.1 itself by default).
    static func run(
        _ relay: HostileRelay,
        configuration: SessionConfiguration,
        wallClock: any WallClock = SystemWallClock(),
        rendezvousSecret: [UInt8] = [UInt8](repeating: 7, count: 32),
        host: String = "127.0.0.1",
        resolver: HostResolver = .system,
        _ body: @Sendable (LiveSession, EventRecorder) async throws -> Void
    ) async throws {
        let loop = try EventLoop(name: "test.loopback")
        defer { loop.shutdown() }
        let events = EventBus<SessionEvent>()
        let session = LiveSession(
            dialer: RelayDialer(
                host: host,
                port: relay.port,
                rendezvousSecret: rendezvousSecret,
                clock: ContinuousClock(),
                wallClock: wallClock,
                tls: nil,
                schedule: .production,
                loop: loop,
                resolver: resolver
            ),
            identity: SessionIdentity(
                appStaticPrivateKey: ScriptedBox.appPrivateKey,
                boxStaticPublicKey: ScriptedBox.staticPublicKey,
                payload: []
            ),
            configuration: configuration,
            clock: ContinuousClock(),
            wallClock: wallClock,
            random: SystemRandomSource(),
            log: DiscardingLogSink(),
            events: events,
            executor: loop
        )
        let recorder = EventRecorder(events.subscribe(), wallClock: SystemWallClock())
        try await withTaskExecutorPreference(loop) {
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
}
