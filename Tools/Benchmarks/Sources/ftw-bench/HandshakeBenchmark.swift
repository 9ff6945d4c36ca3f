import FTWDemoBox
import FTWSession
import FTWSessionInterface
import FTWWebSocket
import Foundation

/// `ftw-bench handshake`: what a return from the background costs in time on loopback, from the dial to `hello_ok`,
/// against opening the relay's socket alone.
///
/// The real stack on 127.0.0.1 (`LiveSession` → `RelayDialer` → WebSocket → `DemoRelayServer` → the demo box),
/// the phone enrolled in a first round and returning as a known device in the others, each round from the
/// background straight to `.active`. The baseline, interleaved round by round so both see the same machine: a TCP
/// connect and WebSocket upgrade into the same room until the relay says `ready`, then closed. What the measure adds
/// is the Noise IK handshake (both sides), `hello` and `hello_ok`.
enum HandshakeBenchmark {
    private static let rounds = 50

    static func run() async {
        do {
            let loopback = try await BenchLoopback()
            let (session, recorder) = (loopback.session, loopback.recorder)
            try await loopback.run {
                var returns: [Duration] = []
                var sockets: [Duration] = []
                for round in 0...rounds {
                    let clock = ContinuousClock()
                    let start = clock.now
                    await session.setPhase(.active)
                    try await StreamWaits.streaming(round + 1, recorder)
                    let elapsed = start.duration(to: clock.now)
                    await session.setPhase(.background)
                    try await StreamWaits.down(recorder)
                    let socket = try await openRoom(port: loopback.relay.port, path: loopback.dialer.path)
                    // The first round enrols and loads what a first dial loads: it is not a return.
                    guard round > 0 else { continue }
                    returns.append(elapsed)
                    sockets.append(socket)
                }
                report(returns: returns, sockets: sockets)
            }
        } catch {
            print("handshake: \(error)")
        }
    }

    /// The time from dialling the relay's room until the relay says `ready`.
    private static func openRoom(port: Int, path: String) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let connection = try await WebSocketClient.connect(
            host: "127.0.0.1",
            port: port,
            path: path,
            limits: WebSocketLimits(),
            clock: clock
        )
        _ = try await connection.receive()
        let elapsed = start.duration(to: clock.now)
        await connection.close()
        return elapsed
    }

    private static func report(returns: [Duration], sockets: [Duration]) {
        let measure = median(returns)
        let baseline = median(sockets)
        print("handshake: relay socket alone, TCP + upgrade + ready (baseline): \(microseconds(baseline)) µs")
        print("handshake: a return, dial to hello_ok (socket + Noise IK + hello): \(microseconds(measure)) µs")
        print(
            "handshake: medians of \(returns.count) rounds; ratio return / socket: "
                + String(format: "%.2f", measure / baseline)
        )
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    private static func microseconds(_ duration: Duration) -> String {
        String(format: "%.0f", duration / .microseconds(1))
    }
}
