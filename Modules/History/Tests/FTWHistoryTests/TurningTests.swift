import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWHistory
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// cache.md §6: after priming, the window is asked again only when the five minutes turn while a node's view is
/// open; a view opening within the same five minutes asks nothing, across a return from the background.
@Suite struct TurningTests {
    @Test func reopeningANodeWithinTheSameFiveMinutesAsksNothingAcrossAReturn() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            model.send(.nodeViewAppeared)
            await world.streaming(for: 5)
            model.send(.nodeViewGone)
            await world.background(for: .seconds(30))
            await world.streamReturns()
            model.send(.nodeViewAppeared)
            await world.streaming(for: 20)
        }
        #expect(await world.queries().count == 2, "the priming's two queries and nothing more")
    }

    @Test func anOpenNodeAsksAgainWhenTheFiveMinutesTurnAndNotBefore() async throws {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            model.send(.nodeViewAppeared)
            await world.streaming(for: 3 * 60 + 58)
            #expect(await world.queries().count == 2)
            await world.streaming(for: 3)
            #expect(await world.queries().count == 3)
            await world.streaming(for: 5 * 60)
            #expect(await world.queries().count == 4)
        }
        let sent = await world.session.sent
        try #require(sent.count == 4)
        let tenOhFive = HistoryWorld.tenOhOne + 4 * HistoryWorld.minute
        #expect((tenOhFive..<tenOhFive + 1000).contains(sent[2].atMs), "on the first beat of 10:05")
        let turn = try #require(await world.queries().dropFirst(2).first)
        #expect(turn.fromMs == sent[2].atMs - 48 * 60 * HistoryWorld.minute)
        #expect(turn.have.count == 4, "one query for the window, the closed tiles offered as held")
    }

    /// Found by the soak: a node opened during a dial (the window last asked at 10:01) planned its load for 10:10 at
    /// once, the five minutes turned before the stream came, and the box got the 10:10 window and then the 10:15.
    @Test func aNodeOpenedBeforeTheStreamComesAsksOnceUnderTheNameThatHoldsWhenItComes() async throws {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            await world.streaming(for: 5)
            await world.background(for: .seconds(13 * 60 + 45))
            model.send(.nodeViewAppeared)
            await world.simulation.advance(by: .seconds(20))
            await world.streamReturns()
            await world.streaming(for: 5)
        }
        let queries = await world.queries()
        #expect(queries.count == 3, "the priming's two and one for the window of 10:15")
        let sent = await world.session.sent
        try #require(sent.count == 3)
        let tenFifteen = HistoryWorld.tenOhOne + 14 * HistoryWorld.minute
        #expect(sent[2].atMs >= tenFifteen, "asked once the stream came, after the five minutes turned")
        #expect(queries[2].fromMs == sent[2].atMs - 48 * 60 * HistoryWorld.minute, "planned when it was sent")
    }

    @Test func withNoNodeOpenTheFiveMinutesTurningAskNothing() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            model.send(.nodeViewAppeared)
            await world.streaming(for: 10)
            model.send(.nodeViewGone)
            await world.streaming(for: 20 * 60)
        }
        #expect(await world.queries().count == 2)
    }

    @Test func aNodeOpenedInALaterFiveMinutesAsksOnceWithTheTilesItHolds() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            await world.streaming(for: 7 * 60)
            #expect(await world.queries().count == 2)
            model.send(.nodeViewAppeared)
            await world.frame()
        }
        let queries = await world.queries()
        #expect(queries.count == 3)
        #expect(queries.last?.have.count == 4)
    }
}
