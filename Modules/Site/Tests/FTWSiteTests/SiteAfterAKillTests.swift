import FTWBoxProtocol
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Testing

/// A client killed and launched again draws the whole site before connecting, and asks by the same ages.
@Suite struct SiteAfterAKillTests {
    private func firstLife(in folder: URL) async {
        let world = SiteWorld(folder: folder)
        let models = [world.chargers(), world.prefs(), world.status()] as [any AskingModel & SiteService]
        let snapshot = world.snapshot()
        await world.with(models + [world.home(), snapshot]) { simulation in
            for model in models { model.send(.viewAppeared) }
            await world.streamReturns()
            let frame = TelemetryFrame(
                connection: 1,
                arrivalMs: SiteWorld.tenOhOne,
                message: .snap(SnapshotModelTests.snap())
            )
            await world.session.publish(.telemetry(frame))
            await simulation.settle()
            await snapshot.persist()
        }
    }

    @Test(arguments: [
        (40, [String]()), (2 * 60, ["/api/loadpoints", "/api/status"]),
        (16 * 60, ["/api/loadpoints", "/api/planner/preferences", "/api/status"]),
    ])
    func theSiteDrawsBeforeConnectingAndReadsByTheSameAges(secondsLater: Int, reads: [String]) async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("site-kill-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        await firstLife(in: folder)
        let world = SiteWorld(at: SiteWorld.tenOhOne + Int64(secondsLater) * 1000, folder: folder)
        let chargers = world.chargers()
        let prefs = world.prefs()
        let status = world.status()
        let home = world.home()
        let snapshot = world.snapshot()
        for model in [chargers, prefs, status] as [any AskingModel] { await model.restore() }
        await home.restore()
        await snapshot.restore()
        #expect(await chargers.value?.chargers.map(\.id) == ["garage", "street"])
        #expect(await prefs.value?.mode == "cheapest")
        #expect(await status.value?.version == "1.42.0")
        #expect(home.timeZone == TimeZone(identifier: "Europe/Stockholm"))
        #expect(await snapshot.shown?.isLive == false)
        #expect(await world.session.sent.isEmpty, "all of it before anything connects")
        let models = [chargers, prefs, status] as [any AskingModel & SiteService]
        await world.with(models) { _ in
            for model in models { model.send(.viewAppeared) }
            await world.streamReturns()
        }
        #expect(await world.paths() == reads)
    }
}
