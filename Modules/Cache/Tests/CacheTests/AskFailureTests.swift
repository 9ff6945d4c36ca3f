import Cache
import ClockSeam
import ClockSeamTesting
import SessionInterface
import SessionTestSupport
import Testing

/// A read that failed on the way (not a refusal) is never asked again on the stream's beat: only when someone starts
/// looking again, and from the second failure in a row not before a backoff of a minute, doubling.
@Suite struct AskFailureTests {
    @Test func aTimedOutReadIsNotAskedByTenMinutesOfLiveFramesOnlyByALookerWithBackoff() async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            await world.session.setAnswer { _ in .failure(SessionError(.timeout, "the box stayed silent for 20 s")) }
            chargers.send(.viewAppeared)
            await world.streamReturns()
            #expect(await world.sentCount() == 1)
            await world.streaming(for: .seconds(600))
            #expect(await world.sentCount() == 1, "ten minutes of live frames ask nothing")
            chargers.send(.viewGone)
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 2, "someone starts looking again")
            chargers.send(.viewGone)
            chargers.send(.viewAppeared)
            await world.streaming(for: .seconds(59))
            #expect(await world.sentCount() == 2, "the second failure in a row waits a minute")
            await world.streaming(for: .seconds(1))
            chargers.send(.viewGone)
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 3)
            chargers.send(.refresh)
            await simulation.settle()
            #expect(await world.sentCount() == 4, "a person's pull to refresh is not held back")
        }
    }

    @Test func theBackoffDoublesFromOneMinuteToHalfAnHour() {
        let error = SessionError(.timeout, "silent")
        var failure = AskFailure(name: "chargers", error: error, atMs: 0)
        var waits: [Int64] = [failure.notBeforeMs]
        for _ in 0..<7 {
            failure.record(name: "chargers", error: error, atMs: 0)
            waits.append(failure.notBeforeMs)
        }
        #expect(waits == [0, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000])
        #expect(!failure.allows("chargers", startsLooking: false, nowMs: 10_000_000), "never on the beat")
        #expect(failure.allows("chargers", startsLooking: true, nowMs: 1_800_000))
        #expect(!failure.allows("chargers", startsLooking: true, nowMs: 1_799_999))
    }
}
