import FTWBus
import FTWCache
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// cache.md §1 and §2 at the moment a person pulls to refresh and at the moment a read fails: a person's ask goes
/// first and a read of the same thing already queued joins it; a look that was queued before a failure is no new look.
@Suite struct LiveAskPullTests {
    /// Found by pulling the plan as the app came back to the home screen: the pull waited behind the plan's own
    /// queued read and was sent after it, last and twice.
    @Test func aPullWhileTheSameReadIsQueuedJoinsItAndGoesFirst() async {
        let world = AskWorld()
        let asks = [world.chargers(), world.prefs(), world.plan()]
        await world.with(asks) { simulation in
            for ask in asks { ask.send(.viewAppeared) }
            await world.session.open(hello: SampleHello.make())
            await simulation.settle()
            asks[2].send(.refresh)
            await simulation.settle()
            await world.session.sendReads()
            await simulation.settle()
            #expect(await world.sent() == ["plan.get", "/api/loadpoints", "/api/planner/preferences"])
            #expect(await world.session.sent.first?.order == .person)
        }
    }

    @Test func twoPullsInOneMomentShareOneFrame() async {
        let world = AskWorld()
        let plan = world.plan()
        await world.with([plan]) { simulation in
            await world.session.open(hello: SampleHello.make())
            await simulation.settle()
            plan.send(.refresh)
            plan.send(.refresh)
            await simulation.settle()
            await world.session.sendReads()
            await simulation.settle()
            #expect(await world.sent() == ["plan.get"])
            plan.send(.refresh)
            await simulation.settle()
            #expect(await world.sent() == ["plan.get", "plan.get"], "a pull after the answer always sends")
        }
    }

    /// Found on a slow relay: the stream's return waited behind a read that then timed out, and was taken as someone
    /// starting to look again: the read was asked again at once.
    @Test func aReturnQueuedBehindAFailedReadIsNoNewLookALaterViewIs() async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            await world.session.setAnswer { _ in .failure(SessionError(.timeout, "the box stayed silent for 20 s")) }
            chargers.send(.viewAppeared)
            chargers.send(.refresh)
            await simulation.settle()
            await world.session.open(hello: SampleHello.make())
            await simulation.settle()
            await world.session.sendReads()
            await world.streaming(for: .seconds(600))
            #expect(await world.sentCount() == 1, "the return came before the failure; the beat never asks")
            chargers.send(.viewGone)
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 2, "someone starts looking after the failure")
            chargers.send(.viewGone)
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 3, "and again, with no backoff: these rules are the whole policy")
        }
    }
}
