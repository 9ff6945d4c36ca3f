import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Synchronization

/// A world for the site's models: a simulation at 10:01:00 UTC on 2026-12-02, a scripted session whose API answers
/// each test sets per path, and a sealed store in a temporary folder that outlives a "kill".
struct SiteWorld: Sendable {
    static let tenOhOne: Int64 = 1_796_205_660_000
    static let site = SiteID(rawValue: "c0ffee00deadbeef")!

    static let chargersBody = #"""
        {"loadpoints": [
          {"id": "garage", "driver_name": "easee-1", "plugged_in": true, "current_power_w": 7360.4},
          {"id": "street", "driver_name": "zap", "plugged_in": false, "current_power_w": 0}
        ]}
        """#
    static let prefsBody = #"{"mode": "cheapest", "reserve_soc_pct": 20, "horizon_h": 24}"#
    static let statusBody = #"{"version": "1.42.0", "mode": "self_consumption", "drivers": {"easee-1": "ok"}}"#

    let simulation: Simulation
    let session: ScriptedSession
    let store: FileSealedStore
    let folder: URL
    let answers: Answers

    init(at originMs: Int64 = tenOhOne, folder: URL? = nil) {
        simulation = Simulation(originMs: originMs)
        session = ScriptedSession(wallClock: simulation.clock)
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("site-\(UUID())")
        self.folder = folder
        store = FileSealedStore(
            folder: folder,
            keys: InMemoryKeyProvider(key: Array(repeating: 5, count: 32)),
            events: EventBus()
        )
        answers = Answers()
        answers.set(ChargerList.kind.path, body: Self.chargersBody)
        answers.set(PlannerPrefs.kind.path, body: Self.prefsBody)
        answers.set(SiteStatus.kind.path, body: Self.statusBody)
    }

    func chargers(timeToLive: Duration? = nil) -> ChargersModel {
        ChargersModel(
            site: Self.site,
            session: session,
            store: store,
            wallClock: simulation.clock,
            timeToLive: timeToLive
        )
    }

    func prefs() -> PrefsModel {
        PrefsModel(site: Self.site, session: session, store: store, wallClock: simulation.clock)
    }

    func status() -> StatusModel {
        StatusModel(site: Self.site, session: session, store: store, wallClock: simulation.clock)
    }

    func home() -> HomeModel {
        HomeModel(site: Self.site, store: store, sessionEvents: session.events)
    }

    func snapshot() -> SnapshotModel {
        SnapshotModel(site: Self.site, store: store, sessionEvents: session.events, wallClock: simulation.clock)
    }

    /// Runs `services` inside the simulation while `body` drives the world, then stops them.
    func with(_ services: [any SiteService], _ body: @escaping @Sendable (Simulation) async -> Void) async {
        let answers = answers
        await session.setAnswer { answers.answer($0) }
        await simulation.run { simulation in
            await withTaskGroup(of: Void.self) { group in
                for service in services { group.addTask { try? await service.run() } }
                await simulation.settle()
                await body(simulation)
                group.cancelAll()
                for service in services { service.finish() }
            }
        }
    }

    /// The stream comes up with a hello from a box in `timeZone` running `build`, and the world settles.
    func streamReturns(timeZone: String = "Europe/Stockholm", build: String = "test") async {
        var hello = SampleHello.make(timeZone: timeZone)
        hello.box.build = build
        await session.connect(hello: hello)
        await simulation.settle()
    }

    /// The app goes to the background for `duration`, the session closed meanwhile.
    func background(for duration: Duration) async {
        await session.background()
        await simulation.advance(by: duration)
    }

    /// The stream stays up for `duration`, beating every second.
    func streaming(for duration: Duration) async {
        for _ in 0..<Int(duration.components.seconds) {
            await simulation.advance(by: .seconds(1))
            await session.beat()
        }
        await simulation.settle()
    }

    /// The API paths read so far.
    func paths() async -> [String] {
        await session.sent.compactMap { if case .api(let api) = $0.request { api.path } else { nil } }
    }

    /// The sealed file `name`'s bytes on disk, to tell a rewrite (a fresh nonce) from none.
    func fileBytes(_ name: SealedFileName) -> Data? {
        FileManager.default.contents(atPath: folder.appendingPathComponent(name.fileName).path)
    }

    func removeFolder() { try? FileManager.default.removeItem(at: folder) }
}

/// The box's API answers by path, changeable while a test runs.
final class Answers: Sendable {
    private let byPath = Mutex<[String: Result<ReadAnswer, SessionError>]>([:])

    func set(_ path: String, body: String, status: Int = 200) {
        byPath.withLock { $0[path] = .success(.api(APIResponse(status: status, body: Array(body.utf8)))) }
    }

    func set(_ path: String, refusal: ErrorCode, retryable: Bool = false) {
        let body = ErrorBody(code: refusal, retryable: retryable)
        byPath.withLock { $0[path] = .failure(SessionError(.box, "refused", box: body)) }
    }

    func set(_ path: String, failure: SessionError) {
        byPath.withLock { $0[path] = .failure(failure) }
    }

    func answer(_ request: ReadRequest) -> Result<ReadAnswer, SessionError> {
        guard case .api(let api) = request else { return .failure(SessionError(.box, "only API reads are scripted")) }
        return byPath.withLock { $0[api.path] } ?? .failure(SessionError(.box, "no route"))
    }
}

/// A service the world can start and stop.
protocol SiteService: ClientService {
    func finish()
}

extension SiteReadModel: SiteService {}

extension HomeModel: SiteService {
    func finish() {}
}

extension SnapshotModel: SiteService {
    nonisolated func finish() {}
}
