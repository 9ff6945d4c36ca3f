import FTWBoxProtocol
import FTWHistory
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// cache.md §1: a pull to refresh on a node view or the widget is a person's ask: it re-asks the window the view
/// shows, first in the read order, even while the window stands.
@Suite struct RefreshTests {
    @Test func aRefreshReAsksTheStandingWindowOnceFirstInTheOrderWithTheTilesItHolds() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            model.send(.nodeViewAppeared)
            await world.streaming(for: 5)
            model.send(.refresh)
            await world.streaming(for: 5)
        }
        let sent = await world.session.sent
        #expect(sent.count == 3, "the priming's two queries and the refresh's one")
        #expect(sent.last?.order == .person)
        #expect((await world.queries()).last?.have.count == 4, "the closed tiles offered as held")
    }

    /// cache.md §1 and §2: a pull while the priming load is queued joins it and puts it first: one load, not two.
    @Test func aPullWhileThePrimingIsQueuedJoinsItAndItGoesFirst() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.session.open(hello: SampleHello.make())
            await world.frame()
            model.send(.nodeViewAppeared)
            model.send(.refresh)
            await world.frame()
            await world.session.sendReads()
            await world.streaming(for: 5)
        }
        let sent = await world.session.sent
        #expect(sent.count == 2, "the priming's two queries, nothing more")
        #expect(sent.allSatisfy { $0.order == .person }, "the pull put the load first")
    }
}
