import FTWDemoBox
import FTWSession
import FTWSessionInterface

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
        let loopback = try await BenchLoopback(tls: tls) { try LatencyProxy(to: $0, oneWay: oneWay).port }
        let (session, recorder) = (loopback.session, loopback.recorder)
        return try await loopback.run {
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
            return times.sorted()[times.count / 2]
        }
    }
}
