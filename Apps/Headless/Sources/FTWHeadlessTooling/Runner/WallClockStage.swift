import FTWCache
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWSeal
import FTWSealInterface
import FTWSocketLoop

/// A paired box in another process (`ftw-demobox`), reached through its relay on the wall clock: waits are real,
/// the box's knobs are out of reach, and what it received is not visible, so the report counts the asks log.
struct WallClockStage: ScenarioStage {
    /// The paired site the scenario runs against.
    let site: SiteID
    /// What the scenario's waits sleep on: the shared loop's timer, as the client's deadlines do, so a client left
    /// in the background with nothing to do wakes nobody while the scenario waits.
    let clock: any Clock<Duration> = Self.waitClock()

    var nowMs: Int64 { SystemWallClock().nowMs }

    var wallClock: any WallClock { SystemWallClock() }

    func settle() async { await Task.yield() }

    func advance(by duration: Duration) async { try? await clock.sleep(for: duration) }

    private static func waitClock() -> any Clock<Duration> {
        guard let loop = try? EventLoop.shared() else { return ContinuousClock() }
        return LoopClock(base: ContinuousClock(), loop: loop)
    }

    func run() async throws {}

    func turn(_ knob: BoxKnob) async -> String? {
        "box knob '\(knob)' not turned: the box runs in its own process"
    }

    func turn(relay knob: RelayKnob) async -> String? {
        "relay word '\(knob)' not said: the relay runs in the box's own process"
    }

    func receivedRequests() async -> [ReceivedRequest]? { nil }

    func makeClient(store: FileSealedStore, policy: AskPolicy) async throws -> HeadlessClient {
        guard let paired = await PairedSite.read(site: site, from: store), paired.relay != nil else {
            throw ScenarioError(line: 1, "site \(site) is not paired through a relay on this phone")
        }
        return try HeadlessClient.onWallClock(paired: paired, store: store, policy: policy)
    }
}
