import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionInterface
import FTWSessionTestSupport

/// A world for the cache's rules: a simulation at 10:01:00 UTC on 2026-12-02, a scripted session that answers
/// every read, a sealed store in memory, and the three models the rules talk about.
struct AskWorld: Sendable {
    static let tenOhOne: Int64 = 1_796_205_660_000
    static let site = SiteID(rawValue: "deb7e3fa44c17f16")!

    let simulation: Simulation
    let session: ScriptedSession
    let store: InMemorySealedStore
    /// The store's bus: what it wrote and dropped.
    let seals = EventBus<SealEvent>()
    let policy: AskPolicy

    /// A world whose store keeps its files on `disk`: pass an earlier world's to stand for a relaunch.
    init(
        originMs: Int64 = tenOhOne,
        disk: MemoryDisk = MemoryDisk(),
        key: [UInt8] = Array(repeating: 7, count: 32),
        policy: AskPolicy = .ageKeyed
    ) {
        simulation = Simulation(originMs: originMs)
        session = ScriptedSession(wallClock: simulation.clock)
        store = InMemorySealedStore(disk: disk, keys: InMemoryKeyProvider(key: key), events: seals)
        self.policy = policy
    }

    /// The disk the world's sealed files are on.
    var disk: MemoryDisk { store.disk }

    /// The chargers: a constant name, a minute to live; sealed in `store`, or in the world's store when nil.
    func chargers(store: (any SealedStore)? = nil) -> LiveAsk<String> {
        model("chargers", ttl: .seconds(60), order: .chargers, path: "/api/loadpoints", store: store) { _, _ in
            "chargers"
        }
    }

    /// The planner's preferences: a constant name, fifteen minutes to live.
    func prefs() -> LiveAsk<String> {
        model("prefs", ttl: .seconds(900), order: .prefs, path: "/api/planner/preferences") { _, _ in "prefs" }
    }

    /// The plan: named by the quarter hour, no time to live.
    func plan() -> LiveAsk<String> {
        model("plan", ttl: nil, order: .plan, path: nil) { nowMs, _ in
            AskName("plan, quarter \(nowMs / 900_000)")
        }
    }

    private func model(
        _ name: String,
        ttl: Duration?,
        order: ReadOrder,
        path: String?,
        store: (any SealedStore)? = nil,
        namer: @escaping LiveAsk<String>.Namer
    ) -> LiveAsk<String> {
        let session = session
        return LiveAsk(
            configuration: .init(model: name, timeToLive: ttl, policy: policy),
            site: Self.site,
            store: store ?? self.store,
            sessionEvents: session.events,
            wallClock: simulation.clock,
            namer: namer,
            asker: { askName, byPerson throws(SessionError) in
                let order = byPerson ? .person : order
                if let path {
                    _ = try await session.read(.api(APIRequest(method: "GET", path: path)), order: order)
                } else {
                    _ = try await session.read(.plan, order: order)
                }
                return "\(name) answered under \(askName)"
            }
        )
    }

    /// Reads each model's kept file at once.
    func answerEverything() async {
        await session.setAnswer { request in
            switch request {
            case .plan: .success(.plan(Plan(rev: 1, uptimeMs: 0, slots: [], stale: false, ceilingW: nil)))
            default: .success(.api(APIResponse(status: 200, body: Array("{}".utf8))))
            }
        }
    }

    /// How many request frames went out so far.
    func sentCount() async -> Int { await session.sent.count }

    /// The paths and kinds sent after the first `skip`.
    func sent(after skip: Int = 0) async -> [String] {
        await session.sent.dropFirst(skip).map { read in
            switch read.request {
            case .api(let api): api.path
            default: read.request.wireType
            }
        }
    }
}

extension AskWorld {
    /// Runs `asks` as services inside the simulation while `body` drives the world, then stops them.
    func with(_ asks: [LiveAsk<String>], _ body: @escaping @Sendable (Simulation) async -> Void) async {
        await simulation.run { simulation in
            await answerEverything()
            await withTaskGroup(of: Void.self) { group in
                for ask in asks { group.addTask { try? await ask.run() } }
                await simulation.settle()
                await body(simulation)
                for ask in asks { ask.finish() }
            }
        }
    }

    /// The stream comes back (a return from the background, a redial), and the world settles.
    func streamReturns() async {
        await session.connect(hello: SampleHello.make())
        await simulation.settle()
    }

    /// The app goes to the background for `duration`; the session is closed meanwhile.
    func background(for duration: Duration) async {
        await session.background()
        await simulation.advance(by: duration)
    }

    /// A view stays open for `duration` with the box's 1 Hz beat running.
    func streaming(for duration: Duration) async {
        for _ in 0..<Int(duration.components.seconds) {
            await simulation.advance(by: .seconds(1))
            await session.beat()
        }
        await simulation.settle()
    }
}
