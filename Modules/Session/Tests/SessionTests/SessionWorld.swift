import BoxProtocol
import Bus
import ClockSeam
import Session
import SessionInterface
import SessionTestSupport
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

/// What the helpers below need of a world: its clock and its session.
protocol SimulatedWorld: Sendable {
    var simulation: Simulation { get }
    var session: LiveSession { get }
}

extension SessionWorld: SimulatedWorld {}

extension SimulatedWorld {
    /// Brings the app to the front (inactive, then active) and lets the stream come up.
    func comeToFront() async {
        await session.setPhase(.inactive)
        await session.setPhase(.active)
        await simulation.settle()
    }

    /// Now, in ms since the world began.
    var elapsedMs: Int64 { simulation.clock.nowMs - SessionWorld.originMs }

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
        let results = try? await withReads { reads in
            await reads.ask(request, order: order)
            await advance(by: duration)
            await reads.cancelWaiting()
        }
        return await results?.results(of: request).first ?? .failure(SessionError(.cancelled, "never settled"))
    }

    /// Sends `request` while `duration` passes and returns how it settled (`.cancelled` when it was still waiting).
    func command(
        _ request: CommandRequest,
        within duration: Duration = .seconds(1)
    ) async -> Result<
        CommandOutcome, SessionError
    >? {
        let outcome = Outcome()
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [session] in
                do throws(SessionError) {
                    await outcome.set(.success(try await session.command(request)))
                } catch {
                    await outcome.set(.failure(error))
                }
            }
            await advance(by: duration)
            group.cancelAll()
        }
        return await outcome.value
    }

    /// Runs `body` with a way to ask reads that wait in the background; a read still waiting when `body` returns is
    /// cancelled (its result is `.cancelled`), so a read that never settles fails its test instead of hanging it.
    ///
    /// - Returns: Every read's result.
    func withReads(_ body: @Sendable (Readers) async throws -> Void) async throws -> ReadResults {
        let results = ReadResults()
        let (asked, continuation) = AsyncStream.makeStream(of: Readers.Asked.self)
        let cancel = StopRequest()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [session] in
                await withTaskGroup(of: Bool.self) { readers in
                    readers.addTask {
                        await cancel.wait()
                        return true
                    }
                    var waiting = 0
                    for await read in asked {
                        waiting += 1
                        readers.addTask {
                            await results.add(read.request, await session.result(of: read))
                            return false
                        }
                    }
                    while waiting > 0, let cancelled = await readers.next() {
                        if cancelled { readers.cancelAll() } else { waiting -= 1 }
                    }
                    readers.cancelAll()
                }
            }
            let readers = Readers(continuation: continuation, cancel: cancel, simulation: simulation, results: results)
            try await body(readers)
            await readers.cancelWaiting()
            try await group.waitForAll()
        }
        return results
    }
}

/// How a test asks reads inside ``SessionWorld/withReads(_:)``.
struct Readers: Sendable {
    struct Asked: Sendable {
        let request: ReadRequest
        let order: ReadOrder
        let onChunk: (@Sendable (HistChunk) -> Void)?
    }

    let continuation: AsyncStream<Asked>.Continuation
    let cancel: StopRequest
    let simulation: Simulation
    /// The results so far.
    let results: ReadResults

    /// Asks `request` and lets it reach the session.
    func ask(_ request: ReadRequest, order: ReadOrder, onChunk: (@Sendable (HistChunk) -> Void)? = nil) async {
        continuation.yield(Asked(request: request, order: order, onChunk: onChunk))
        await simulation.settle()
    }

    /// Cancels every read still waiting (their callers go away).
    func cancelWaiting() async {
        continuation.finish()
        cancel.fire()
        await simulation.settle()
    }
}

extension LiveSession {
    /// Reads as a caller would, keeping the outcome.
    fileprivate func result(of read: Readers.Asked) async -> Result<ReadAnswer, SessionError> {
        do throws(SessionError) {
            return .success(try await self.read(read.request, order: read.order, onChunk: read.onChunk))
        } catch {
            return .failure(error)
        }
    }
}

/// A one-shot signal a test fires to cancel the reads still waiting.
final class StopRequest: Sendable {
    private let state = Mutex<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func fire() {
        let waiter = state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once fired, or when the waiting task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let fired = state.withLock { state in
                    if !state.fired, !Task.isCancelled { state.waiter = continuation }
                    return state.fired || Task.isCancelled
                }
                if fired { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
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

/// Where a command's outcome lands.
actor Outcome {
    private(set) var value: Result<CommandOutcome, SessionError>?

    func set(_ value: Result<CommandOutcome, SessionError>) {
        self.value = value
    }
}
