import Bus
import ClockSeam
import DemoBox
import Foundation
import Session
import SessionInterface
import SessionTestHarness
import WebSocket

/// `ftw-bench tls`, second part: from inactive to live (`hello_ok` received, streaming) through a link with 50 ms
/// each way, over `ws://` and over `wss://` to the demo box's relay.
///
/// The real stack on loopback (`LiveSession` → `RelayDialer` → WebSocket, TLS or not → a `LatencyProxy` →
/// `DemoRelayServer` → the demo box), one phone enrolled in the first round and returning as a known device in the
/// others, each round from the background through `.inactive` to `.active`. TLS 1.3 should add one round trip.
enum SessionLatencyBenchmark {
    private static let rounds = 10
    static let oneWay = Duration.milliseconds(50)

    /// The median time from inactive to live over `ws://` and over `wss://`.
    static func run(tls: DemoBoxTLS) async throws -> (ws: Duration, wss: Duration) {
        let ws = try await median(tls: nil)
        let wss = try await median(tls: tls)
        return (ws, wss)
    }

    private static func median(tls: DemoBoxTLS?) async throws -> Duration {
        let box = SimulatedBox(
            configuration: DemoBoxConfiguration(),
            clock: ContinuousClock(),
            wallClock: SystemWallClock()
        )
        let relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock(), tls: tls)
        let proxy = try LatencyProxy(to: relay.port, oneWay: oneWay)
        let dialer = RelayDialer(
            host: "127.0.0.1",
            port: proxy.port,
            rendezvousSecret: await box.rendezvousSecret,
            clock: ContinuousClock(),
            wallClock: SystemWallClock(),
            tls: tls.map { .trusting(caFile: $0.caFile) }
        )
        let events = EventBus<SessionEvent>()
        let session = LiveSession(
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
        let recorder = EventRecorder(events.subscribe(), wallClock: SystemWallClock())
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            group.addTask { try await session.run() }
            group.addTask { await recorder.run() }
            defer { group.cancelAll() }
            var times: [Duration] = []
            for round in 0...rounds {
                let clock = ContinuousClock()
                let start = clock.now
                await session.setPhase(.inactive)
                await session.setPhase(.active)
                try await StreamWaits.streaming(round + 1, recorder)
                if round > 0 { times.append(start.duration(to: clock.now)) }
                await session.setPhase(.background)
                try await StreamWaits.down(recorder)
            }
            await relay.close()
            return times.sorted()[times.count / 2]
        }
    }
}
