import FTWBus
import FTWClockSeam
import FTWDemoBox
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWWebSocket

/// The real stack on 127.0.0.1 the session benchmarks time: a demo box and its relay on the real clocks, and a live
/// session (a fresh phone key with the box's pairing code) whose dialer reaches the relay through the port `route`
/// gives it (the relay's own, or a proxy's in front of it), its events recorded to wait on.
struct BenchLoopback {
    let box: SimulatedBox
    let relay: DemoRelayServer
    let dialer: RelayDialer
    let session: LiveSession
    let recorder: EventRecorder

    init(tls: DemoBoxTLS? = nil, route: (_ relayPort: Int) throws -> Int = { $0 }) async throws {
        // The benchmarks return a hundred times a minute: the relay's join allowance would measure itself.
        var configuration = DemoBoxConfiguration()
        configuration.joinAllowance = nil
        box = SimulatedBox(configuration: configuration, clock: ContinuousClock(), wallClock: SystemWallClock())
        relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock(), tls: tls)
        dialer = RelayDialer(
            host: "127.0.0.1",
            port: try route(relay.port),
            rendezvousSecret: await box.rendezvousSecret,
            clock: ContinuousClock(),
            wallClock: SystemWallClock(),
            tls: tls.map { .trusting(caFile: $0.caFile) }
        )
        let events = EventBus<SessionEvent>()
        session = LiveSession(
            dialer: dialer,
            identity: SessionIdentity(
                appStaticPrivateKey: [UInt8](repeating: 0x22, count: 32),
                boxStaticPublicKey: box.boxStaticPublicKey,
                payload: await box.mintPairingCode()
            ),
            configuration: SessionConfiguration(build: "bench"),
            clock: ContinuousClock(),
            wallClock: SystemWallClock(),
            random: SystemRandomSource(),
            log: DiscardingLogSink(),
            events: events
        )
        recorder = EventRecorder(events.subscribe(), wallClock: SystemWallClock())
    }

    /// Runs the box, the relay, the session and the recorder around `body`, then closes the relay.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            group.addTask { try await session.run() }
            group.addTask { await recorder.run() }
            defer { group.cancelAll() }
            let result = try await body()
            await relay.close()
            return result
        }
    }
}
