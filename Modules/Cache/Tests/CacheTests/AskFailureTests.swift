import BoxProtocol
import Cache
import ClockSeam
import ClockSeamTesting
import SessionInterface
import SessionTestSupport
import Testing

/// A read that failed on the way (not a refusal) is never asked again on the stream's beat: only when someone starts
/// looking again after the failure, each time, with no backoff (cache.md §1: these rules are the whole policy).
@Suite struct AskFailureTests {
    @Test func aTimedOutReadIsNotAskedByTenMinutesOfLiveFramesOnlyByEachLookerAfterIt() async {
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
            await simulation.settle()
            #expect(await world.sentCount() == 3, "a second failure in a row hides no backoff")
            chargers.send(.refresh)
            await simulation.settle()
            #expect(await world.sentCount() == 4, "a person's pull to refresh is not held back")
        }
    }

    @Test func aFailureAllowsOnlyALookAfterItOrAnotherName() {
        let failure = AskFailure(name: "chargers", error: SessionError(.timeout, "silent"), learnedAt: 7)
        #expect(!failure.isNewLook(at: 7), "queued before the failure was learned")
        #expect(failure.isNewLook(at: 8))
        #expect(!failure.allows("chargers", looksAgain: false), "never on the beat")
        #expect(failure.allows("chargers", looksAgain: true))
        #expect(failure.allows("chargers, the next quarter", looksAgain: false), "a new name")
        let refusal = AskFailure(
            name: "chargers",
            error: SessionError(.box, "refused", box: ErrorBody(code: .precondition, retryable: false)),
            learnedAt: 7
        )
        #expect(!refusal.allows("chargers", looksAgain: true), "a refusal is not asked again under its name")
    }
}
