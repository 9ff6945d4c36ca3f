import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWHistory
import FTWHistoryTestSupport
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWSessionTestSupport
import Foundation

/// A world for the history's rules: a simulation (10:01:00 UTC on 2026-12-02 unless told otherwise), a scripted
/// session answered by a ``ScriptedBox``, and a sealed store in a folder that outlives a kill when a test passes it on.
struct HistoryWorld: Sendable {
    static let tenOhOne: Int64 = 1_796_205_660_000
    static let minute: Int64 = 60_000
    static let site = SiteID(rawValue: "deb7e3fa44c17f16")!

    let simulation: Simulation
    let session: ScriptedSession
    let store: FileSealedStore
    let sealEvents: EventBus<SealEvent>
    let folder: URL
    let policy: AskPolicy

    init(
        originMs: Int64 = tenOhOne,
        folder: URL? = nil,
        key: [UInt8] = Array(repeating: 7, count: 32),
        policy: AskPolicy = .ageKeyed
    ) {
        simulation = Simulation(originMs: originMs)
        session = ScriptedSession(wallClock: simulation.clock)
        self.folder =
            folder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("history-tests-\(UUID().uuidString)")
        sealEvents = EventBus()
        store = FileSealedStore(folder: self.folder, keys: InMemoryKeyProvider(key: key), events: sealEvents)
        self.policy = policy
    }

    /// A history model of this world's site.
    func model() -> HistoryModel {
        HistoryModel(
            site: Self.site,
            store: store,
            session: session,
            sessionEvents: session.events,
            clock: simulation.clock,
            wallClock: simulation.clock,
            policy: policy
        )
    }

    /// Lets `box` answer every `hist.query` from now on.
    func script(_ box: ScriptedBox) async {
        let clock = simulation.clock
        await session.setAnswer { request in
            guard case .history(let query) = request else {
                return .failure(SessionError(.box, "only history is scripted", box: ErrorBody(code: .unknownOp)))
            }
            return .success(.history(box.answer(query, nowMs: clock.nowMs)))
        }
    }

    /// Runs `model` as a service inside the simulation while `body` drives the world, then stops it.
    func with(_ model: HistoryModel, _ body: @escaping @Sendable (Simulation) async -> Void) async {
        await simulation.run { simulation in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await model.run() }
                await simulation.settle()
                await body(simulation)
                model.finish()
            }
        }
    }

    /// What a run left behind: the model to look at, and every event it published.
    struct Run: Sendable {
        let model: HistoryModel
        let events: [HistoryEvent]
    }

    /// Lets `box` answer, makes a model and runs it while `body` drives the world; returns it with its events.
    @discardableResult
    func run(
        box: ScriptedBox? = ScriptedBox(),
        _ body: @escaping @Sendable (HistoryModel) async -> Void
    ) async -> Run {
        if let box { await script(box) }
        let model = model()
        let events = model.events.subscribe()
        await with(model) { _ in await body(model) }
        model.events.finish()
        return Run(model: model, events: await drained(events))
    }

    /// One display frame and a little more: what landed is gathered and published.
    func frame() async {
        await simulation.advance(by: .milliseconds(17))
    }

    /// The stream comes back (launch, a return from the background, a redial) and a frame passes.
    func streamReturns() async {
        await session.connect(hello: SampleHello.make())
        await frame()
    }

    /// The app goes to the background for `duration`; the session is closed meanwhile.
    func background(for duration: Duration) async {
        await session.background()
        await simulation.advance(by: duration)
    }

    /// The stream runs for `seconds`, one beat a second.
    func streaming(for seconds: Int) async {
        for _ in 0..<seconds {
            await simulation.advance(by: .seconds(1))
            await session.beat()
        }
        await frame()
    }

    /// Every `hist.query` sent so far.
    func queries() async -> [HistQuery] {
        await session.sent.compactMap { read in
            guard case .history(let query) = read.request else { return nil }
            return query
        }
    }

    /// The size of `tiles-<site>` on disk, if it is there.
    func tilesFileSize() async -> Int? {
        await store.files().first { $0.name == .tiles(Self.site) }?.bytes
    }

    func removeFolder() { try? FileManager.default.removeItem(at: folder) }
}

/// Everything a bus carried, once it is finished.
func drained<Event: Sendable>(_ stream: BusStream<Event>) async -> [Event] {
    var events: [Event] = []
    for await event in stream { events.append(event) }
    return events
}

extension HistoryWorld.Run {
    /// The windows published, in order.
    var changes: [HistoryWindow] {
        events.compactMap { event in
            if case .changed(let window) = event { return window }
            return nil
        }
    }

    /// The errors of refused tiles and files, in order.
    var refusals: [HistoryError] {
        events.compactMap { event in
            switch event {
            case .tileRefused(let error), .fileRefused(let error): error
            default: nil
            }
        }
    }
}

/// Wall-clock landmarks of the default world.
enum Landmarks {
    /// 00:00 UTC on 2026-12-02: the start of the tile still filling at 10:01.
    static let midnight = HistoryWorld.tenOhOne - (10 * 60 + 1) * HistoryWorld.minute
    /// 12:00 UTC on 2026-12-02: the next tile boundary.
    static let noon = midnight + 12 * 60 * HistoryWorld.minute
}
