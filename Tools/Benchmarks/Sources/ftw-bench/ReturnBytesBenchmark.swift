import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWDemoBox
import FTWSession
import FTWSessionInterface
import Foundation

/// `ftw-bench return-bytes`: what one return from the background costs on the wire, against the app's cold first
/// open, counted at the carrier (Noise messages and their bytes, WebSocket framing left out).
///
/// The live session and the demo box in one process on a simulated clock (the in-process relay room), so every
/// figure is exact and the same on every run. Each side is measured over the same 3.5 s from the phase change: the
/// handshake, `hello`, `hello_ok`, `snap` and three ticks. The cold open (the baseline) carries the pairing code in
/// message 1 and enrols; the return, after 30 s in the background, is a known device's.
enum ReturnBytesBenchmark {
    private static let window = Duration.milliseconds(3_500)

    static func run() async {
        let simulation = Simulation(originMs: 1_764_669_600_000)
        let (cold, back) = await simulation.run { simulation in
            let box = SimulatedBox(
                configuration: DemoBoxConfiguration(),
                clock: simulation.clock,
                wallClock: simulation.clock
            )
            let session = LiveSession(
                dialer: box.inProcessDialer(),
                identity: SessionIdentity(
                    appStaticPrivateKey: [UInt8](repeating: 0x22, count: 32),
                    boxStaticPublicKey: box.boxStaticPublicKey,
                    payload: await box.mintPairingCode()
                ),
                configuration: SessionConfiguration(build: "bench"),
                clock: simulation.clock,
                wallClock: simulation.clock,
                random: SeededRandomSource(seed: 3),
                log: DiscardingLogSink(),
                events: EventBus<SessionEvent>()
            )
            return await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await box.run() }
                group.addTask { try await session.run() }
                defer { group.cancelAll() }
                await simulation.settle()
                let cold = await cost(of: session, in: simulation)
                await simulation.advance(by: .seconds(10) - window)
                await session.setPhase(.background)
                await simulation.advance(by: .seconds(30))
                let back = await cost(of: session, in: simulation)
                return (cold, back)
            }
        }
        print("return-bytes: cold first open (baseline): \(line(cold))")
        print("return-bytes: a return after 30 s away:     \(line(back))")
        let ratio = Double(back.totalBytes) / Double(cold.totalBytes)
        print("return-bytes: ratio return / cold open, total bytes: \(String(format: "%.2f", ratio))")
    }

    /// The traffic of coming to the front (inactive, then active) and the `window` after it.
    private static func cost(of session: LiveSession, in simulation: Simulation) async -> CarrierTraffic {
        let before = await session.traffic
        await session.setPhase(.inactive)
        await session.setPhase(.active)
        await simulation.advance(by: window)
        let after = await session.traffic
        var cost = CarrierTraffic()
        cost.sentMessages = after.sentMessages - before.sentMessages
        cost.sentBytes = after.sentBytes - before.sentBytes
        cost.receivedMessages = after.receivedMessages - before.receivedMessages
        cost.receivedBytes = after.receivedBytes - before.receivedBytes
        return cost
    }

    private static func line(_ traffic: CarrierTraffic) -> String {
        "sent \(traffic.sentMessages) messages / \(traffic.sentBytes) B, received \(traffic.receivedMessages)"
            + " messages / \(traffic.receivedBytes) B, total \(traffic.totalBytes) B"
    }
}
