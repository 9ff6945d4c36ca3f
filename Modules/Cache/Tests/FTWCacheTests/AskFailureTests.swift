import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
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
            error: SessionError(.box, "refused", box: ErrorBody(code: .unknownOp, retryable: false)),
            learnedAt: 7
        )
        #expect(!refusal.allows("chargers", looksAgain: true), "a refusal is not asked again under its name")
        let precondition = AskFailure(
            name: "chargers",
            error: SessionError(.box, "refused", box: ErrorBody(code: .precondition, retryable: false)),
            learnedAt: 7
        )
        #expect(precondition.allows("chargers", looksAgain: true), "no refusal: asked again by a look after it")
    }

    /// The box's codes (protocol.md §2.11) that say its build does not carry the read, so the same build cannot
    /// answer otherwise: no handler claims the route, or the gate refuses the route by the tier declared beside its
    /// handler (§7.3).
    static let refusals: [ErrorCode] = [.unknownOp, .useCommand, .localOnly, .wholeDocument]

    /// Every other code, and one this client does not know: none says anything of the build.
    static let failures: [ErrorCode] = [
        .booting, .commandExpired, .precondition, .conflict, .scopeDenied, .grantRevoked, .lastOwnerProtected,
        .rangeTooLarge, .unavailable, .needsStepUp, .unsupportedMedia, "E_SOMETHING_NEW",
    ]

    @Test func everyCodeTheBoxSendsIsJudgedOneWayOrTheOther() {
        #expect(Set(ErrorCode.boxCodes).isSubset(of: Set(Self.refusals + Self.failures)))
        for code in Self.refusals {
            #expect(Self.verdict(code) == AskFailure.Verdict(retryable: false, missingRoute: true), "\(code)")
        }
        for code in Self.failures {
            #expect(Self.verdict(code) == AskFailure.Verdict(retryable: true), "\(code)")
        }
    }

    private static func verdict(_ code: ErrorCode) -> AskFailure.Verdict {
        AskFailure.Verdict(SessionError(.box, "refused", box: ErrorBody(code: code, retryable: code.isRetryable)))
    }

    /// Issue 24: a box error other than E_UNKNOWN_OP (`E_PRECONDITION`, `E_SCOPE_DENIED`, …) was never asked again
    /// under its name, though cache.md §1 asks again a read that failed for any other reason when someone starts
    /// looking again after the failure. Never on the beat, nothing sealed, and a pull sends.
    @Test(arguments: Self.failures)
    func aBoxErrorThatIsNoRefusalIsAskedAgainByEachLookAfterIt(code: ErrorCode) async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            await world.session.setAnswer { _ in
                .failure(SessionError(.box, "refused", box: ErrorBody(code: code, retryable: code.isRetryable)))
            }
            chargers.send(.viewAppeared)
            await world.streamReturns()
            await world.streaming(for: .seconds(120))
            #expect(await world.sentCount() == 1, "the beat never asks")
            chargers.send(.viewGone)
            chargers.send(.viewAppeared)
            await simulation.settle()
            #expect(await world.sentCount() == 2, "someone starts looking again after the failure")
            chargers.send(.refresh)
            await simulation.settle()
            #expect(await world.sentCount() == 3, "a person's pull sends")
            #expect(await chargers.lackingOnBuild == nil)
            #expect(await chargers.shown.isAvailable)
        }
    }

    /// A refusal by the build: not asked again by a look or a pull while the box runs that build, sealed with it, and
    /// asked once the box streams another.
    @Test(arguments: Self.refusals)
    func aRefusalByTheBuildIsAskedAgainOnlyUnderAnotherBuild(code: ErrorCode) async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            await world.session.setAnswer { _ in
                .failure(SessionError(.box, "refused", box: ErrorBody(code: code, retryable: false)))
            }
            chargers.send(.viewAppeared)
            await world.streamReturns()
            chargers.send(.viewGone)
            chargers.send(.viewAppeared)
            chargers.send(.refresh)
            await simulation.settle()
            #expect(await world.sentCount() == 1, "neither a look nor a pull asks the same build again")
            #expect(await chargers.lackingOnBuild == "test")
            var updated = SampleHello.make()
            updated.box.build = "test-2"
            await world.session.connect(hello: updated)
            await simulation.settle()
            #expect(await world.sentCount() == 2, "another build is asked")
        }
    }
}
