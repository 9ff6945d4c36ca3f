import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSealTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// The rules of cache.md §1, each through what the box would receive.
@Suite struct LiveAskTests {
    @Test func aReturnWithinAMinuteSendsNoRequest() async {
        let world = AskWorld()
        let asks = [world.chargers(), world.prefs(), world.plan()]
        await world.with(asks) { _ in
            for ask in asks { ask.send(.viewAppeared) }
            await world.streamReturns()
            #expect(await world.sent() == ["/api/loadpoints", "/api/planner/preferences", "plan.get"])
            await world.background(for: .seconds(30))
            await world.streamReturns()
            #expect(await world.sentCount() == 3)
        }
    }

    @Test func afterTwoMinutesOnlyTheChargersAreReadAgain() async {
        let world = AskWorld()
        let asks = [world.chargers(), world.prefs(), world.plan()]
        await world.with(asks) { _ in
            for ask in asks { ask.send(.viewAppeared) }
            await world.streamReturns()
            await world.background(for: .seconds(120))
            await world.streamReturns()
            #expect(await world.sent(after: 3) == ["/api/loadpoints"])
        }
    }

    @Test func aViewOpenedAgainAsksNothingWhileItsAnswerStandsAndOnceWhenOlder() async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            await world.streamReturns()
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 1)
            chargers.send(.viewGone)
            await simulation.advance(by: .seconds(40))
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 1)
            chargers.send(.viewGone)
            await simulation.advance(by: .seconds(30))
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 2)
        }
    }

    @Test func aViewThatStaysOpenAcrossAMinuteAsksNothingMore() async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { _ in
            chargers.send(.viewAppeared)
            await world.streamReturns()
            await world.streaming(for: .seconds(90))
            #expect(await world.sentCount() == 1)
        }
    }

    @Test func anOpenPlanViewAsksAgainWhenTheQuarterTurnsAndNotBefore() async {
        let world = AskWorld()
        let plan = world.plan()
        await world.with([plan]) { _ in
            plan.send(.viewAppeared)
            await world.streamReturns()
            await world.streaming(for: .seconds(13 * 60 + 59))
            #expect(await world.sentCount() == 1)
            await world.streaming(for: .seconds(2))
            #expect(await world.sent() == ["plan.get", "plan.get"])
        }
    }

    /// Found by the soak: a view that appeared while no stream ran (shown and backgrounded in one moment) left a read
    /// waiting for the next session; 20 minutes later it went out under the old quarter, and the new quarter cost a
    /// second frame in the same return.
    @Test func aViewShownWhileNoStreamRunsAsksOnceOnTheReturnUnderTheNameThatHoldsThen() async {
        let world = AskWorld()
        let plan = world.plan()
        let answers = plan.events.subscribe()
        await world.with([plan]) { simulation in
            plan.send(.viewAppeared)
            await simulation.settle()
            await world.background(for: .seconds(20 * 60))
            await world.streamReturns()
            #expect(await world.sent() == ["plan.get"])
            var iterator = answers.makeAsyncIterator()
            guard case .answered(let stored) = await iterator.next() else {
                Issue.record("no answer")
                return
            }
            #expect(stored.name == AskName("plan, quarter \((AskWorld.tenOhOne + 20 * 60_000) / 900_000)"))
        }
    }

    @Test func aNameChangeDuringAnAskWaitsAndIsNeverAnsweredByTheOldAnswer() async {
        let world = AskWorld(originMs: AskWorld.tenOhOne + 13 * 60_000 + 59_000)
        let plan = world.plan()
        let answers = plan.events.subscribe()
        await world.with([plan]) { simulation in
            await world.streamReturns()
            await world.session.hold()
            plan.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.session.inFlight.count == 1)
            await simulation.advance(by: .seconds(2))
            #expect(await world.sentCount() == 1, "the new quarter waits for the ask on the wire")
            await world.session.release()
            await simulation.settle()
            #expect(await world.sentCount() == 2, "and is asked once that ask settles")
            await world.session.release()
            await simulation.settle()
        }
        plan.events.finish()
        var recorded: [String] = []
        for await event in answers {
            if case .answered(let stored) = event { recorded.append(stored.name.rawValue) }
        }
        let tenFourteen = (AskWorld.tenOhOne + 13 * 60_000 + 59_000) / 900_000
        #expect(recorded == ["plan, quarter \(tenFourteen)", "plan, quarter \(tenFourteen + 1)"])
    }

    @Test func aPullToRefreshAlwaysSendsAndGoesFirst() async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            chargers.send(.viewAppeared)
            await world.streamReturns()
            chargers.send(.refresh)
            await simulation.settle()
            let sent = await world.session.sent
            #expect(sent.count == 2)
            #expect(sent.last?.order == .person)
        }
    }

    @Test func noTimerAsks() async {
        let world = AskWorld()
        let asks = [world.chargers(), world.prefs(), world.plan()]
        await world.with(asks) { simulation in
            await world.streamReturns()
            await simulation.advance(by: .seconds(3 * 3600))
            #expect(await world.sentCount() == 0, "with nobody looking and no stream beat, nothing asks")
            await world.streaming(for: .seconds(20 * 60))
            #expect(await world.sentCount() == 0, "nor does the stream's beat while nobody looks")
        }
    }

    @Test func theOldPolicyAsksOnEveryReturn() async {
        let world = AskWorld(policy: .everyReturn)
        let asks = [world.chargers(), world.prefs(), world.plan()]
        await world.with(asks) { _ in
            for ask in asks { ask.send(.viewAppeared) }
            await world.streamReturns()
            await world.background(for: .seconds(30))
            await world.streamReturns()
            #expect(await world.sentCount() == 6)
        }
    }
}

/// Answers sealed before a kill stand after it by the same rules, their age counted on the wall clock.
@Suite struct LiveAskAfterAKillTests {
    private func answerChargers(on disk: MemoryDisk) async {
        let world = AskWorld(disk: disk)
        let chargers = world.chargers()
        await world.with([chargers]) { _ in
            chargers.send(.viewAppeared)
            await world.streamReturns()
        }
    }

    @Test(arguments: [(40, 0), (70, 1)])
    func aSealedAnswerStandsUntilItsTimeToLive(secondsLater: Int, expectedRequests: Int) async {
        let disk = MemoryDisk()
        await answerChargers(on: disk)
        let relaunched = AskWorld(originMs: AskWorld.tenOhOne + Int64(secondsLater) * 1000, disk: disk)
        let chargers = relaunched.chargers()
        await chargers.restore()
        #expect(await chargers.stored?.name == "chargers", "the answer shows before anything connects")
        await relaunched.with([chargers]) { _ in
            chargers.send(.viewAppeared)
            await relaunched.streamReturns()
            #expect(await relaunched.sentCount() == expectedRequests)
        }
    }

    @Test func aFileUnderAnotherKeyStartsEmpty() async {
        let disk = MemoryDisk()
        await answerChargers(on: disk)
        let relaunched = AskWorld(disk: disk, key: Array(repeating: 9, count: 32))
        let chargers = relaunched.chargers()
        await chargers.restore()
        #expect(await chargers.stored == nil)
        #expect(disk.names.isEmpty, "the file that cannot open is dropped")
    }
}
