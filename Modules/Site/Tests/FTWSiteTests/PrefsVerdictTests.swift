import FTWBoxProtocol
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSite
import Foundation
import Testing

/// A box that does not carry planner preferences (protocol.md §7.4: no such route; `E_UNKNOWN_OP {field: path}`) is
/// asked once per build: the verdict is sealed with `hello_ok.box.build`, so a relaunch asks nothing and a box
/// update asks once more.
@Suite struct PrefsVerdictTests {
    /// One life of the app: a prefs view open over a stream from a box running `build`; returns the paths read.
    private func life(in folder: URL, atMs: Int64, build: String, carriesPrefs: Bool) async -> [String] {
        let world = SiteWorld(at: atMs, folder: folder)
        if carriesPrefs {
            world.answers.set(PlannerPrefs.kind.path, body: #"{"mode": "cheapest"}"#)
        } else {
            world.answers.set(PlannerPrefs.kind.path, refusal: .unknownOp)
        }
        let prefs = world.prefs()
        await prefs.restore()
        await world.with([prefs]) { simulation in
            prefs.send(.viewAppeared)
            await world.streamReturns(build: build)
            await world.streaming(for: .seconds(20 * 60))
            await world.background(for: .seconds(20 * 60))
            await world.streamReturns(build: build)
            prefs.send(.viewGone)
            prefs.send(.viewAppeared)
            await simulation.settle()
        }
        #expect(await prefs.isAvailable == carriesPrefs)
        return await world.paths()
    }

    @Test func theVerdictIsSealedWithTheBuildAndHoldsThroughAKillAndARelaunch() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-verdict-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = await life(in: folder, atMs: SiteWorld.tenOhOne, build: "v1.42.0", carriesPrefs: false)
        #expect(first == ["/api/planner/preferences"])
        let relaunched = SiteWorld(at: SiteWorld.tenOhOne + 3_600_000, folder: folder)
        let prefs = relaunched.prefs()
        await prefs.restore()
        #expect(await prefs.isAvailable == false, "hidden from the first draw, before anything connects")
        #expect(await prefs.failure == nil)
        let second = await life(
            in: folder,
            atMs: SiteWorld.tenOhOne + 7_200_000,
            build: "v1.42.0",
            carriesPrefs: false
        )
        #expect(second.isEmpty, "the same build is not asked again")
    }

    /// cache.md §1: a pull to refresh of a route the box refused for its build answers at once from the remembered
    /// refusal and sends nothing, in the stay that heard it and after a relaunch, before anything connects and after
    /// the same build says hello; the box's next build is asked.
    @Test func aPullOfTheRefusedRouteSendsNothingUntilTheBuildChanges() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-pull-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let world = SiteWorld(at: SiteWorld.tenOhOne, folder: folder)
        world.answers.set(PlannerPrefs.kind.path, refusal: .unknownOp)
        let prefs = world.prefs()
        await world.with([prefs]) { simulation in
            prefs.send(.viewAppeared)
            await world.streamReturns(build: "v1.42.0")
            prefs.send(.refresh)
            await simulation.settle()
            #expect(await prefs.isAvailable == false)
            #expect(await prefs.failure == nil, "the refusal hides the feature; it is no error a person sees")
        }
        #expect(await world.paths() == ["/api/planner/preferences"], "the pull sent nothing")

        let relaunched = SiteWorld(at: SiteWorld.tenOhOne + 3_600_000, folder: folder)
        relaunched.answers.set(PlannerPrefs.kind.path, body: #"{"mode": "cheapest"}"#)
        let again = relaunched.prefs()
        await again.restore()
        await relaunched.with([again]) { simulation in
            again.send(.viewAppeared)
            again.send(.refresh)
            await simulation.settle()
            await relaunched.streamReturns(build: "v1.42.0")
            again.send(.refresh)
            await simulation.settle()
            #expect(await relaunched.paths().isEmpty, "the remembered refusal answers, before and after hello")
            await relaunched.background(for: .seconds(60))
            await relaunched.streamReturns(build: "v1.43.0")
            #expect(await relaunched.paths() == ["/api/planner/preferences"], "a new build is asked once")
            again.send(.refresh)
            await simulation.settle()
        }
        #expect(await relaunched.paths().count == 2, "and a pull of a route the box carries sends")
        #expect(await again.isAvailable)
    }

    @Test func aBoxUpdateIsAskedOnceMore() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-update-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = await life(in: folder, atMs: SiteWorld.tenOhOne, build: "v1.42.0", carriesPrefs: false)
        let stillLacking = await life(
            in: folder,
            atMs: SiteWorld.tenOhOne + 3_600_000,
            build: "v1.43.0",
            carriesPrefs: false
        )
        #expect(stillLacking == ["/api/planner/preferences"], "a new build asks once, and is refused once")
        let afterThat = await life(
            in: folder,
            atMs: SiteWorld.tenOhOne + 7_200_000,
            build: "v1.43.0",
            carriesPrefs: false
        )
        #expect(afterThat.isEmpty)
        let carried = await life(
            in: folder,
            atMs: SiteWorld.tenOhOne + 10_800_000,
            build: "v1.44.0",
            carriesPrefs: true
        )
        #expect(
            carried == ["/api/planner/preferences", "/api/planner/preferences"],
            "the update that added the route is asked and answers; after 40 minutes its answer is past its 15"
        )
    }
}
