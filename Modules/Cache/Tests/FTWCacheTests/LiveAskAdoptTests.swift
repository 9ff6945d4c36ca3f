import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// An answer the box sends unasked, and a failed ask the model must be able to show.
@Suite struct LiveAskAdoptTests {
    @Test func aPushedAnswerReplacesTheHeldOneWithoutARequestAndIsSealed() async {
        let world = AskWorld()
        let plan = world.plan()
        let quarter = AskName("plan, quarter \(AskWorld.tenOhOne / 900_000)")
        await world.with([plan]) { simulation in
            plan.send(.viewAppeared)
            await world.streamReturns()
            plan.adopt("pushed by the box")
            await simulation.settle()
            #expect(await world.sentCount() == 1, "a pushed answer costs no request")
            #expect(await plan.stored?.answer == "pushed by the box")
            #expect(await plan.stored?.name == quarter)
            await world.streaming(for: .seconds(60))
            #expect(await world.sentCount() == 1, "and stands under the quarter's name")
        }
        let relaunched = AskWorld(disk: world.disk)
        let again = relaunched.plan()
        await again.restore()
        #expect(await again.stored?.answer == "pushed by the box", "it was sealed in the model's file")
    }

    @Test func aFailedAskIsReportedUntilAnAnswerIsRecorded() async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            await world.session.setAnswer { _ in .failure(SessionError(.timeout, "the box stayed silent")) }
            chargers.send(.viewAppeared)
            await world.streamReturns()
            #expect((await chargers.failure as? SessionError)?.code == .timeout)
            #expect(await chargers.stored == nil)
            await world.answerEverything()
            chargers.send(.refresh)
            await simulation.settle()
            #expect(await chargers.failure == nil)
            #expect(await chargers.stored != nil)
        }
    }
}
