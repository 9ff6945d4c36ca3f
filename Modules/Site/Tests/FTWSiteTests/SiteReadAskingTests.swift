import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Testing

/// When the site's small models read again (cache.md §1): only when someone starts looking and the answer is older
/// than its time to live.
@Suite struct SiteReadAskingTests {
    @Test func chargersAreReadAgainAfterAMinuteOnlyWhenSomeoneStartsLooking() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            await world.streamReturns()
            chargers.send(.viewAppeared)
            await simulation.settle()
            chargers.send(.viewGone)
            await world.streaming(for: .seconds(40))
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.paths().count == 1, "40 s old: it stands")
            chargers.send(.viewGone)
            await world.streaming(for: .seconds(5 * 60))
            #expect(await world.paths().count == 1, "no timer and no beat asks while nobody looks")
            chargers.send(.viewAppeared)
            await simulation.settle()
        }
        #expect(await world.paths() == ["/api/loadpoints", "/api/loadpoints"])
        #expect(await world.session.sent.map(\.order) == [.chargers, .chargers])
    }

    @Test func aChargersViewThatStaysOpenForThreeMinutesAsksOnce() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let chargers = world.chargers()
        await world.with([chargers]) { _ in
            chargers.send(.viewAppeared)
            await world.streamReturns()
            await world.streaming(for: .seconds(3 * 60))
        }
        #expect(await world.paths() == ["/api/loadpoints"])
    }

    @Test func aReturnAfterTwoMinutesRereadsChargersAndStatusButNotPrefs() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let models = [world.chargers(), world.prefs(), world.status()] as [any AskingModel & SiteService]
        await world.with(models) { _ in
            for model in models { model.send(.viewAppeared) }
            await world.streamReturns()
            #expect(await world.paths() == ["/api/loadpoints", "/api/planner/preferences", "/api/status"])
            await world.background(for: .seconds(30))
            await world.streamReturns()
            #expect(await world.paths().count == 3, "30 s later every answer stands")
            await world.background(for: .seconds(2 * 60))
            await world.streamReturns()
        }
        #expect(await world.paths().dropFirst(3) == ["/api/loadpoints", "/api/status"])
    }

    @Test func theTimeToLiveIsSetPerKind() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let chargers = world.chargers(timeToLive: .seconds(10))
        #expect(chargers.kind.timeToLive == .seconds(10))
        #expect(world.prefs().kind.timeToLive == .seconds(15 * 60))
        await world.with([chargers]) { simulation in
            await world.streamReturns()
            chargers.send(.viewAppeared)
            await simulation.settle()
            chargers.send(.viewGone)
            await simulation.advance(by: .seconds(15))
            chargers.send(.viewAppeared)
            await simulation.settle()
        }
        #expect(await world.paths().count == 2)
    }

    @Test func prefsTheBoxDoesNotCarryHideTheFeatureWithoutAnErrorAndAreNotAskedAgain() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        world.answers.set(PlannerPrefs.kind.path, refusal: .unknownOp)
        let prefs = world.prefs()
        await world.with([prefs]) { simulation in
            prefs.send(.viewAppeared)
            await world.streamReturns()
            #expect(await prefs.isAvailable == false)
            #expect(await prefs.failure == nil, "a box without the route is not an error a person sees")
            await world.streaming(for: .seconds(20 * 60))
            await world.background(for: .seconds(20 * 60))
            await world.streamReturns()
            prefs.send(.viewGone)
            prefs.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.paths() == ["/api/planner/preferences"])
            #expect(await prefs.value == nil)
            // The box is updated while the app runs: the new build may carry the route, and is asked once more.
            await world.background(for: .seconds(60))
            world.answers.set(PlannerPrefs.kind.path, body: #"{"mode": "cheapest"}"#)
            await world.streamReturns(build: "v1.43.0")
            #expect(await prefs.isAvailable)
            #expect(await prefs.value?.mode == "cheapest")
        }
        #expect(await world.paths() == ["/api/planner/preferences", "/api/planner/preferences"])
    }

    @Test func aReadThatFailsOnTheWayIsShownAndTriedWhenSomeoneLooksAgain() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        world.answers.set(SiteStatus.kind.path, failure: SessionError(.timeout, "silent"))
        let status = world.status()
        await world.with([status]) { simulation in
            await world.streamReturns()
            status.send(.viewAppeared)
            await world.streaming(for: .seconds(30))
            #expect(await world.paths().count == 1, "the beat does not retry")
            #expect((await status.failure as? SessionError)?.code == .timeout)
            #expect(await status.isAvailable)
            world.answers.set(SiteStatus.kind.path, body: SiteWorld.statusBody)
            status.send(.viewGone)
            status.send(.viewAppeared)
            await simulation.settle()
        }
        #expect(await world.paths().count == 2)
        #expect(await status.failure == nil)
        #expect(await status.value?.version == "1.42.0")
    }
}
