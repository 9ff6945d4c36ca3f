import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Synchronization

/// One simulated world: a live session, a scripted box on in-memory carriers, a recorder of the session's events
/// and its log, all on one manual clock.
struct SessionWorld: Sendable {
    static let originMs: Int64 = 1_764_669_600_000
    static let pairingCode = [UInt8](repeating: 0x5A, count: 16)

    let simulation: Simulation
    let dialer: InMemoryDialer
    let box: ScriptedBox
    let session: LiveSession
    let recorder: EventRecorder
    let log: InMemoryLogSink

    /// Builds a world, runs the session, the box and the recorder beside `body`, and stops them after it.
    ///
    /// With a `rendezvousSecret`, the dialer knows the box's arrival at the hour's turn as a relay dialer of that
    /// secret does; `originMs` places the world in the hour.
    static func run(
        originMs: Int64 = originMs,
        rendezvousSecret: [UInt8]? = nil,
        configuration: SessionConfiguration = SessionConfiguration(build: "test"),
        random: any RandomSource = SeededRandomSource(seed: 42),
        payload: [UInt8] = [],
        codeMayBeSpent: Bool = false,
        setUp: @Sendable (ScriptedBox) async -> Void = { _ in },
        _ body: @Sendable (SessionWorld) async throws -> Void
    ) async throws {
        let simulation = Simulation(originMs: originMs)
        try await simulation.run { simulation in
            let events = EventBus<SessionEvent>()
            let rendezvous = rendezvousSecret.map { RelayRendezvous(secret: $0, wallClock: simulation.clock) }
            let dialer = InMemoryDialer { rendezvous?.boxArrival }
            let log = InMemoryLogSink()
            let box = ScriptedBox(clock: simulation.clock)
            await setUp(box)
            let identity = SessionIdentity(
                appStaticPrivateKey: ScriptedBox.appPrivateKey,
                boxStaticPublicKey: ScriptedBox.staticPublicKey,
                payload: payload,
                codeMayBeSpent: codeMayBeSpent
            )
            let session = LiveSession(
                dialer: dialer,
                identity: identity,
                configuration: configuration,
                clock: simulation.clock,
                wallClock: simulation.clock,
                random: random,
                log: log,
                events: events
            )
            let world = SessionWorld(
                simulation: simulation,
                dialer: dialer,
                box: box,
                session: session,
                recorder: EventRecorder(events.subscribe(), wallClock: simulation.clock),
                log: log
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await session.run() }
                group.addTask { await box.serve(dialer.accepted) }
                group.addTask { await world.recorder.run() }
                try await body(world)
                group.cancelAll()
            }
        }
    }
}
extension SessionWorld: SimulatedWorld {}
