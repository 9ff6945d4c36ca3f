import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWSessionInterface
import Testing

/// The age-keyed rule as a value (cache.md §1 and §6): what it says to each thing that happens, for a model's ask and
/// for the history, with no clock, no session and no actor.
@Suite struct AskDecisionTests {
    /// One decision driven by hand: the time, and the name the model wants now.
    struct Rule {
        var decision: AskDecision
        var nowMs: Int64 = 0
        var wanted: AskName? = "quarter 1"

        init(_ configuration: AskDecision.Configuration) { decision = AskDecision(configuration) }

        /// A model's ask: the chargers' minute to live unless told otherwise.
        static func model(ttl: Duration? = .seconds(60), policy: AskPolicy = .ageKeyed) -> Rule {
            Rule(.init(timeToLive: ttl, policy: policy))
        }

        /// The history's: primed once, a node view wants the window once.
        static func history(policy: AskPolicy = .ageKeyed) -> Rule {
            Rule(AskDecision.history(policy: policy))
        }

        mutating func on(_ input: AskInput) -> AskAction {
            decision.handle(input, nowMs: nowMs) { wanted }
        }

        /// The stream runs on `connection` to a box of `build`.
        mutating func stream(_ connection: Int = 1, build: String = "b1") -> AskAction {
            _ = on(.hello(build: build))
            return on(.streamReturned(connection: connection))
        }

        /// Answers the ask handed out, asked now.
        mutating func answer() -> AskAction { on(.answered(askedAtMs: nowMs)) }
    }

    static let timeout = AskFailure.Verdict(SessionError(.timeout, "silent"))
    static let refusal = AskFailure.Verdict(
        SessionError(.box, "refused", box: ErrorBody(code: .unknownOp, retryable: false))
    )

    @Test func anAnswerStandsWhileItsNameHoldsAndTheTurnAsksOnTheBeat() {
        var rule = Rule.model(ttl: nil)
        _ = rule.stream()
        #expect(rule.on(.viewAppeared) == .ask("quarter 1", byPerson: false))
        #expect(rule.answer() == .none)
        rule.nowMs += 3_600_000
        #expect(rule.on(.liveFrame(connection: 1)) == .none, "an hour later, the same name stands")
        rule.wanted = "quarter 2"
        #expect(rule.on(.liveFrame(connection: 1)) == .ask("quarter 2", byPerson: false))
    }

    @Test func startingToLookAgainAsksOnlyPastTheTimeToLiveAndTheBeatNever() {
        var rule = Rule.model()
        _ = rule.stream()
        #expect(rule.on(.viewAppeared) == .ask("quarter 1", byPerson: false))
        _ = rule.answer()
        rule.nowMs += 60_000
        #expect(rule.on(.streamReturned(connection: 2)) == .none, "a minute old stands")
        rule.nowMs += 1
        #expect(rule.on(.liveFrame(connection: 2)) == .none, "the beat is not someone starting to look")
        #expect(rule.on(.streamReturned(connection: 3)) == .ask("quarter 1", byPerson: false))
    }

    @Test func nobodyLookingAsksNothing() {
        var rule = Rule.model()
        _ = rule.stream()
        rule.nowMs += 3_600_000
        #expect(rule.on(.liveFrame(connection: 1)) == .none)
        #expect(rule.on(.streamReturned(connection: 2)) == .none)
    }

    @Test func theOldPolicyAsksOnEveryReturn() {
        var rule = Rule.model(policy: .everyReturn)
        _ = rule.stream()
        _ = rule.on(.viewAppeared)
        _ = rule.answer()
        #expect(rule.on(.liveFrame(connection: 1)) == .none)
        #expect(rule.on(.streamReturned(connection: 2)) == .ask("quarter 1", byPerson: false))
    }

    @Test func noAskWithoutAStreamTheReturnAsksUnderTheNameThen() {
        var rule = Rule.model()
        #expect(rule.on(.viewAppeared) == .none)
        rule.wanted = "quarter 2"
        #expect(rule.stream() == .ask("quarter 2", byPerson: false))
        _ = rule.answer()
        _ = rule.on(.streamLost)
        rule.wanted = "quarter 3"
        #expect(rule.on(.viewAppeared) == .none, "lost: nothing asks until it returns")
    }

    /// Found by the carrier-cut scenario: a model that asked on the first live frame, before the stream's return,
    /// saw that ask fail in a cut and was asked again by the return weighed after it.
    @Test func aModelFirstAsksOnTheStreamsReturnNotOnTheFrameBeforeIt() {
        var rule = Rule.model()
        _ = rule.on(.viewAppeared)
        _ = rule.on(.hello(build: "b1"))
        #expect(rule.on(.liveFrame(connection: 1)) == .none)
        #expect(rule.on(.streamReturned(connection: 1)) == .ask("quarter 1", byPerson: false))
    }

    @Test func aPullToRefreshAlwaysSendsFirstEvenWhileTheAnswerStandsOrFailed() {
        var rule = Rule.model()
        #expect(rule.on(.refresh) == .ask("quarter 1", byPerson: true), "even with no stream")
        _ = rule.answer()
        #expect(rule.on(.refresh) == .ask("quarter 1", byPerson: true), "even while it stands")
        _ = rule.on(.failed(Self.timeout))
        #expect(rule.on(.refresh) == .ask("quarter 1", byPerson: true), "even after a failure")
        rule.wanted = nil
        #expect(rule.on(.refresh) == .ask("quarter 1", byPerson: true), "under the held name when none is wanted")
    }

    @Test func aFailureIsNeverAskedOnTheBeatOnlyByEachLookerAfterIt() {
        var rule = Rule.model()
        _ = rule.stream()
        _ = rule.on(.viewAppeared)
        #expect(rule.on(.failed(Self.timeout)) == .none)
        rule.nowMs += 600_000
        #expect(rule.on(.liveFrame(connection: 1)) == .none, "ten minutes of beats ask nothing")
        #expect(rule.on(.viewAppeared) == .ask("quarter 1", byPerson: false), "someone starts looking again")
        _ = rule.on(.failed(Self.timeout))
        #expect(rule.on(.viewAppeared) == .ask("quarter 1", byPerson: false), "no backoff after a second failure")
    }

    /// cache.md §1: a model runs its ask before its next input, so the stream's return that came while the read was
    /// on the wire is handled after the failure; it was queued before it, and is no new look. One queued after is.
    @Test func aLookQueuedBeforeTheFailureIsNoNewLook() {
        var rule = Rule.model()
        _ = rule.decision.handle(.hello(build: "b1"), at: 1, nowMs: 0) { "quarter 1" }
        _ = rule.decision.handle(.viewAppeared, at: 2, nowMs: 0) { "quarter 1" }
        #expect(
            rule.decision.handle(.streamReturned(connection: 1), at: 3, nowMs: 0) { "quarter 1" }
                == .ask("quarter 1", byPerson: false)
        )
        // Queued while the read was on the wire: the carrier dropped and the stream came back.
        #expect(rule.decision.handle(.failed(Self.timeout), at: 6, nowMs: 20_000) { "quarter 1" } == .none)
        #expect(rule.decision.handle(.streamLost, at: 4, nowMs: 20_000) { "quarter 1" } == .none)
        #expect(rule.decision.handle(.streamReturned(connection: 2), at: 5, nowMs: 20_000) { "quarter 1" } == .none)
        #expect(rule.decision.handle(.viewAppeared, at: 6, nowMs: 20_000) { "quarter 1" } == .none)
        #expect(
            rule.decision.handle(.viewAppeared, at: 7, nowMs: 20_000) { "quarter 1" }
                == .ask("quarter 1", byPerson: false)
        )
    }

    @Test func aModelThatCouldNotTakeItsAnswerIsRetryableNotARefusal() {
        struct Unreadable: Error {}
        #expect(AskFailure.Verdict(Unreadable()) == AskFailure.Verdict(retryable: true))
        #expect(Self.refusal == AskFailure.Verdict(retryable: false, missingRoute: true))
        #expect(AskFailure.Verdict(SessionError(.malformedAnswer, "chunks out of order")).retryable)
    }

    @Test func aMissingRouteIsSealedWithTheBuildAndAskedAgainOnlyWhenTheBuildChanges() {
        var rule = Rule.model()
        _ = rule.stream(build: "b1")
        _ = rule.on(.viewAppeared)
        #expect(rule.on(.failed(Self.refusal)) == .sealVerdict)
        #expect(rule.decision.isUnavailable)
        #expect(rule.decision.lackingOnBuild == "b1")
        #expect(rule.on(.refresh) == .none, "the refusal answers a pull: the same build cannot answer otherwise")
        rule.nowMs += 3_600_000
        rule.wanted = "quarter 2"
        #expect(rule.stream(2, build: "b1") == .none, "the same build, even under a new name")
        #expect(rule.stream(3, build: "b2") == .ask("quarter 2", byPerson: false), "an updated box is asked once")
    }

    @Test func aSealedVerdictHoldsAfterARelaunchUntilTheBuildChanges() {
        var rule = Rule.model()
        _ = rule.on(.restored(nil, lackingOnBuild: "b1"))
        #expect(rule.on(.refresh) == .none, "a pull before hello: the remembered build is the one known")
        _ = rule.on(.viewAppeared)
        #expect(rule.stream(build: "b1") == .none)
        #expect(rule.decision.isUnavailable)
        #expect(rule.stream(2, build: "b2") == .ask("quarter 1", byPerson: false))
        _ = rule.answer()
        #expect(!rule.decision.isUnavailable)
        #expect(rule.on(.refresh) == .ask("quarter 1", byPerson: true), "the new build carries it: a pull sends")
        #expect(rule.decision.lackingOnBuild == nil)
    }

    @Test func aNameThatTurnedWhileTheAskWasOnTheWireIsAskedOnceItSettles() {
        var rule = Rule.model(ttl: nil)
        _ = rule.stream()
        #expect(rule.on(.viewAppeared) == .ask("quarter 1", byPerson: false))
        rule.wanted = "quarter 2"
        #expect(rule.answer() == .ask("quarter 2", byPerson: false))
        #expect(rule.decision.held?.name == "quarter 1", "recorded under the name it was asked under")
    }

    @Test func aPushedAnswerIsKeptUnderTheNameWantedOrTheOneHeld() {
        var rule = Rule.model()
        #expect(rule.on(.adopted) == .keep("quarter 1"))
        rule.wanted = nil
        #expect(rule.on(.adopted) == .keep("quarter 1"))
        var empty = Rule.model()
        empty.wanted = nil
        #expect(empty.on(.adopted) == .none, "nothing held, nothing wanted: no name to keep it under")
    }

    // The history's extras, through the same rule.

    @Test func theHistoryPrimesOnceOnTheFirstLiveFrameWithNobodyLooking() {
        var rule = Rule.history()
        _ = rule.on(.hello(build: "b1"))
        #expect(rule.on(.liveFrame(connection: 1)) == .ask("quarter 1", byPerson: false))
        #expect(rule.answer() == .none)
        rule.wanted = "quarter 2"
        #expect(rule.on(.liveFrame(connection: 1)) == .none, "primed: the turn asks nothing with no node open")
        #expect(rule.on(.streamReturned(connection: 2)) == .none)
    }

    @Test func theHistoryUnderTheOldPolicyDoesNotPrime() {
        var rule = Rule.history(policy: .everyReturn)
        #expect(rule.stream() == .none)
        #expect(rule.on(.liveFrame(connection: 1)) == .none)
        #expect(rule.on(.viewAppeared) == .ask("quarter 1", byPerson: false))
    }

    @Test func theGridWidgetWantsOnceAndIsAskedOnTheReturnUnderTheNameThen() {
        var rule = Rule.history()
        _ = rule.stream()
        _ = rule.answer()
        _ = rule.on(.streamLost)
        rule.wanted = "quarter 2"
        #expect(rule.on(.wantsOnce) == .none)
        rule.wanted = "quarter 3"
        #expect(rule.on(.streamReturned(connection: 2)) == .ask("quarter 3", byPerson: false))
        _ = rule.answer()
        #expect(rule.on(.wantsOnce) == .none, "it stands: the widget shares it")
    }

    @Test func aNodeOpenedAndClosedDuringADialStillHasItsWindowAskedAModelsViewNot() {
        var history = Rule.history()
        _ = history.stream()
        _ = history.answer()
        _ = history.on(.streamLost)
        history.wanted = "quarter 2"
        _ = history.on(.viewAppeared)
        _ = history.on(.viewGone)
        #expect(history.on(.streamReturned(connection: 2)) == .ask("quarter 2", byPerson: false))

        var model = Rule.model(ttl: nil)
        _ = model.on(.viewAppeared)
        _ = model.on(.viewGone)
        #expect(model.stream() == .none)
    }

    @Test func aFailedHistoryLoadIsAskedOnTheBeatOnlyForAnOpenNodeWhoseNameTurned() {
        var rule = Rule.history()
        _ = rule.on(.hello(build: "b1"))
        _ = rule.on(.liveFrame(connection: 1))
        #expect(rule.on(.failed(Self.timeout)) == .none)
        rule.wanted = "quarter 2"
        #expect(rule.on(.liveFrame(connection: 1)) == .none, "priming: not on the beat after a failure")
        #expect(rule.on(.viewAppeared) == .ask("quarter 2", byPerson: false))
        _ = rule.on(.failed(Self.timeout))
        rule.nowMs += 60_000
        rule.wanted = "quarter 3"
        #expect(rule.on(.liveFrame(connection: 1)) == .ask("quarter 3", byPerson: false), "an open node, a new name")
    }

    /// cache.md §1: a refused read is remembered with the build, for every read, the history included. A box
    /// refusing `hist.query` was asked again at every five-minute turn (6 requests in a half-hour stay).
    @Test func aRefusedHistoryLoadIsRememberedWithTheBuildLikeEveryRead() {
        var rule = Rule.history()
        #expect(rule.stream(build: "b1") == .ask("quarter 1", byPerson: false))
        #expect(rule.on(.failed(Self.refusal)) == .sealVerdict)
        #expect(rule.decision.lackingOnBuild == "b1")
        #expect(rule.on(.viewAppeared) == .none)
        rule.wanted = "quarter 2"
        #expect(rule.on(.liveFrame(connection: 1)) == .none, "not at the turn: the same build")
        #expect(rule.on(.refresh) == .none, "nor by a pull")
        #expect(rule.decision.nextBeatMs(after: rule.nowMs, turns: .every(.seconds(300))) == .max, "no frame matters")
        _ = rule.on(.hello(build: "b2"))
        #expect(rule.on(.viewAppeared) == .ask("quarter 2", byPerson: false), "a new build is asked")
    }
}
