import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWDemoBox
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness

/// One simulated world around the demo box: the live session dials the box's in-process relay room, enrols with a
/// fresh pairing code, and everything runs on one manual clock.
struct DemoWorld: SimulatedWorld {
    let simulation: Simulation
    let box: SimulatedBox
    let session: LiveSession
    let recorder: EventRecorder

    /// When the world begins (Unix ms).
    static let originMs: Int64 = 1_764_669_600_000
    /// The phone's static key in every demo world.
    static let appPrivateKey = [UInt8](repeating: 0x22, count: 32)

    /// Builds a world, runs the box, the session and the recorder beside `body`, and stops them after it.
    static func run(_ body: @Sendable (DemoWorld) async throws -> Void) async throws {
        let simulation = Simulation(originMs: originMs)
        try await simulation.run { simulation in
            let box = SimulatedBox(
                configuration: DemoBoxConfiguration(),
                clock: simulation.clock,
                wallClock: simulation.clock
            )
            let events = EventBus<SessionEvent>()
            let session = LiveSession(
                dialer: box.inProcessDialer(),
                identity: SessionIdentity(
                    appStaticPrivateKey: appPrivateKey,
                    boxStaticPublicKey: box.boxStaticPublicKey,
                    payload: await box.mintPairingCode()
                ),
                configuration: SessionConfiguration(build: "test"),
                clock: simulation.clock,
                wallClock: simulation.clock,
                random: SeededRandomSource(seed: 3),
                log: DiscardingLogSink(),
                events: events
            )
            let world = DemoWorld(
                simulation: simulation,
                box: box,
                session: session,
                recorder: EventRecorder(events.subscribe(), wallClock: simulation.clock)
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await box.run() }
                group.addTask { try await session.run() }
                group.addTask { await world.recorder.run() }
                await simulation.settle()
                try await body(world)
                group.cancelAll()
            }
        }
    }

}
