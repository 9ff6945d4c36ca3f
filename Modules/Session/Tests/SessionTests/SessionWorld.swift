import BoxProtocol
import Bus
import ClockSeam
import Session
import SessionInterface
import SessionTestSupport

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
    static func run(
        configuration: SessionConfiguration = SessionConfiguration(build: "test"),
        random: any RandomSource = SeededRandomSource(seed: 42),
        payload: [UInt8] = [],
        setUp: @Sendable (ScriptedBox) async -> Void = { _ in },
        _ body: @Sendable (SessionWorld) async throws -> Void
    ) async throws {
        let simulation = Simulation(originMs: originMs)
        try await simulation.run { simulation in
            let events = EventBus<SessionEvent>()
            let dialer = InMemoryDialer()
            let log = InMemoryLogSink()
            let box = ScriptedBox(clock: simulation.clock)
            await setUp(box)
            let identity = SessionIdentity(
                appStaticPrivateKey: ScriptedBox.appPrivateKey,
                boxStaticPublicKey: ScriptedBox.staticPublicKey,
                payload: payload
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
                recorder: EventRecorder(events.subscribe()),
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

    /// Brings the app to the front (inactive, then active) and lets the stream come up.
    func comeToFront() async {
        await session.setPhase(.inactive)
        await session.setPhase(.active)
        await simulation.settle()
    }

    /// Moves time on, letting everything due run.
    func advance(by duration: Duration) async {
        await simulation.advance(by: duration)
    }

    /// Reads `request` while `duration` passes; a read still waiting then is cancelled (and reads `.cancelled`).
    func read(
        _ request: ReadRequest,
        order: ReadOrder,
        within duration: Duration = .seconds(1)
    ) async -> Result<ReadAnswer, SessionError> {
        let results = ReadResults()
        await withThrowingTaskGroup(of: Void.self) { group in
            await ask(request, order: order, in: &group, into: results)
            await advance(by: duration)
            group.cancelAll()
            try? await group.waitForAll()
        }
        return await results.results(of: request).first ?? .failure(SessionError(.cancelled, "never settled"))
    }

    /// Starts `request` as a child of `group` and lets it reach the session.
    func ask(
        _ request: ReadRequest,
        order: ReadOrder,
        in group: inout ThrowingTaskGroup<Void, any Error>,
        into results: ReadResults,
        onChunk: (@Sendable (HistChunk) -> Void)? = nil
    ) async {
        group.addTask { [session] in
            let result: Result<ReadAnswer, SessionError>
            do throws(SessionError) {
                result = .success(try await session.read(request, order: order, onChunk: onChunk))
            } catch {
                result = .failure(error)
            }
            await results.add(request, result)
        }
        await simulation.settle()
    }
}

/// Every read's result, keyed by what was asked, in the order they settled.
actor ReadResults {
    private(set) var settled: [(request: ReadRequest, result: Result<ReadAnswer, SessionError>)] = []

    func add(_ request: ReadRequest, _ result: Result<ReadAnswer, SessionError>) {
        settled.append((request, result))
    }

    /// The results of `request`, in order.
    func results(of request: ReadRequest) -> [Result<ReadAnswer, SessionError>] {
        settled.filter { $0.request == request }.map(\.result)
    }

    /// The error codes of `request`'s failures.
    func errorCodes(of request: ReadRequest) -> [SessionError.Code] {
        results(of: request).compactMap { result in
            if case .failure(let error) = result { return error.code }
            return nil
        }
    }
}

/// The reads the tests ask, by what they stand for.
enum Reads {
    static let chargers = ReadRequest.api(APIRequest(method: "GET", path: "/api/loadpoints"))
    static let prefs = ReadRequest.api(APIRequest(method: "GET", path: "/api/mpc/prefs"))
    static let plan = ReadRequest.plan
    static let status = ReadRequest.api(APIRequest(method: "GET", path: "/api/status"))
    static let energy = ReadRequest.api(APIRequest(method: "GET", path: "/api/energy/daily", query: ["days": "7"]))
    static let prices = ReadRequest.prices(PriceGet(fromMs: 1_764_633_600_000, toMs: 1_764_806_400_000))
    static let history = ReadRequest.history(
        HistQuery(series: ["grid_w"], res: .fiveMinutes, fromMs: 1_764_496_800_000, toMs: 1_764_669_600_000)
    )
}
