import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWHistory
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// cache.md §2 and §6: the grid widget's read joins the load already on the wire instead of sending its own.
@Suite struct GridWidgetTests {
    @Test func theGridWidgetSharesThePriming() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let run = await world.run { model in
            await world.session.hold()
            await world.streamReturns()
            #expect(await world.session.inFlight.count == 1, "the tile still filling is on the wire")
            model.send(.gridWantsWindow)
            await world.simulation.settle()
            await world.session.release()
            await world.frame()
            model.send(.gridWantsWindow)
            await world.frame()
        }
        #expect(await world.queries().count == 2, "two hist.query in all, not three")
        #expect(await run.model.window.newestValueMs == HistoryWorld.tenOhOne - HistoryWorld.minute)
    }

    @Test func theGridWidgetAloneAsksWhenNothingStands() async {
        let world = HistoryWorld(policy: .everyReturn)
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            #expect(await world.queries().isEmpty)
            model.send(.gridWantsWindow)
            await world.frame()
        }
        #expect(await world.queries().count == 2)
    }
}
