import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWPrices
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWSessionTestSupport
import Foundation
import Synchronization

/// A world for the prices and plan rules: a simulation at a Stockholm time, a scripted session answered by a
/// scripted box, a sealed store in a temporary folder, and the box's time zone as the home model would give it.
struct PricesWorld: Sendable {
    static let site = SiteID(rawValue: "0a1b2c3d4e5f6a7b")!

    let simulation: Simulation
    let session: ScriptedSession
    let box: ScriptedBox
    let store: FileSealedStore
    let folder: URL
    let zone: ZoneSetting

    init(at local: String, folder: URL? = nil, zone: TimeZone? = LocalTime.stockholm) {
        simulation = Simulation(originMs: LocalTime.ms(local))
        session = ScriptedSession(wallClock: simulation.clock)
        box = ScriptedBox(clock: simulation.clock)
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("prices-\(UUID())")
        self.folder = folder
        store = FileSealedStore(
            folder: folder,
            keys: InMemoryKeyProvider(key: Array(repeating: 3, count: 32)),
            events: EventBus()
        )
        self.zone = ZoneSetting(zone)
    }

    /// The price window model of this world.
    func prices() -> PriceWindowModel {
        let zone = zone
        return PriceWindowModel(
            site: Self.site,
            session: session,
            store: store,
            wallClock: simulation.clock,
            timeZone: { zone.current }
        )
    }

    /// The plan model of this world.
    func plan() -> PlanModel {
        PlanModel(site: Self.site, session: session, store: store, wallClock: simulation.clock)
    }

    /// Runs `models` inside the simulation while `body` drives the world, then stops them.
    func with(_ models: [any AskingModel], _ body: @escaping @Sendable (Simulation) async -> Void) async {
        let box = box
        await session.setAnswer { box.answer($0) }
        await simulation.run { simulation in
            await withTaskGroup(of: Void.self) { group in
                for model in models { group.addTask { try? await model.run() } }
                await simulation.settle()
                await body(simulation)
                for model in models { model.finish() }
            }
        }
    }

    /// The models' views appear and the stream comes up: someone starts looking.
    func viewsOpen(_ models: any AskingModel...) async {
        for model in models { model.send(.viewAppeared) }
        await streamReturns()
    }

    /// The stream comes up and the world settles.
    func streamReturns() async {
        await session.connect(hello: SampleHello.make())
        await simulation.settle()
    }

    /// The stream stays up for `duration`, beating every `beat`.
    func streaming(for duration: Duration, beat: Duration = .seconds(10)) async {
        var left = duration
        while left > .zero {
            await simulation.advance(by: beat)
            await session.beat()
            left -= beat
        }
        await simulation.settle()
    }

    /// The price windows asked so far, as the local times they were sent at.
    func priceAsks() async -> [String] {
        await session.sent.filter { $0.request.wireType == PriceGet.wireType }.map { LocalTime.clock($0.atMs) }
    }

    /// The plan asks so far, as the local times they were sent at.
    func planAsks() async -> [String] {
        await session.sent.filter { $0.request == .plan }.map { LocalTime.clock($0.atMs) }
    }

    func removeFolder() { try? FileManager.default.removeItem(at: folder) }
}

/// The box's time zone as the composition hands it to the price model: unknown until a hello (or the sealed home)
/// says.
final class ZoneSetting: Sendable {
    private let zone: Mutex<TimeZone?>

    init(_ zone: TimeZone?) { self.zone = Mutex(zone) }

    var current: TimeZone? {
        get { zone.withLock { $0 } }
        set { zone.withLock { $0 = newValue } }
    }
}
