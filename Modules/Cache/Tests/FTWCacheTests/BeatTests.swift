import FTWBoxProtocol
import FTWCache
import FTWSessionInterface
import Testing

/// Which live frames a model needs to see (issue 17: a frame a second reached every model's task): only those after
/// its name can have turned while someone looks, while it primes or waits for a stream, or while it could not name
/// what it wants; every other event always passes.
@Suite struct BeatTests {
    static let quarter = NameTurns.every(.seconds(900))

    @Test func nobodyLookingNeedsNoFrameAndALookerNeedsTheFirstAfterTheQuarterTurns() {
        var rule = AskDecisionTests.Rule.model(ttl: nil)
        _ = rule.stream()
        rule.nowMs = 1_000_000
        #expect(rule.decision.nextBeatMs(after: rule.nowMs, turns: Self.quarter) == .max)
        _ = rule.on(.viewAppeared)
        _ = rule.answer()
        #expect(rule.decision.nextBeatMs(after: rule.nowMs, turns: Self.quarter) == 1_800_000)
        #expect(rule.decision.nextBeatMs(after: 1_800_000, turns: Self.quarter) == 2_700_000)
        #expect(rule.decision.nextBeatMs(after: rule.nowMs, turns: .never) == .max)
        #expect(rule.decision.nextBeatMs(after: rule.nowMs, turns: .anyTime) == 1_000_000)
    }

    @Test func aNameThatCouldNotBeWorkedOutNeedsTheNextFrame() {
        var rule = AskDecisionTests.Rule.model(ttl: nil)
        _ = rule.stream()
        rule.wanted = nil
        #expect(rule.on(.viewAppeared) == .none)
        #expect(rule.decision.nextBeatMs(after: 5, turns: .never) == 5, "the zone may be known by the next frame")
        rule.wanted = "prices day 1"
        #expect(rule.on(.liveFrame(connection: 1)) == .ask("prices day 1", byPerson: false))
        _ = rule.answer()
        #expect(rule.decision.nextBeatMs(after: 5, turns: .never) == .max)
    }

    @Test func theHistoryNeedsEveryFrameUntilPrimed() {
        var rule = AskDecisionTests.Rule.history()
        #expect(rule.decision.nextBeatMs(after: 7, turns: Self.quarter) == 7)
        #expect(rule.on(.liveFrame(connection: 1)) == .ask("quarter 1", byPerson: false))
        _ = rule.answer()
        #expect(rule.decision.nextBeatMs(after: 7, turns: Self.quarter) == .max, "primed, and nobody looks")
        #expect(rule.decision.streamConnection == 1)
    }

    @Test func afterAFailureOnlyTheFramesThatCouldAskAgainPass() {
        var rule = AskDecisionTests.Rule.history()
        _ = rule.stream(build: "b1")
        rule.nowMs = 1_000_000
        _ = rule.on(.failed(AskDecisionTests.timeout))
        #expect(
            rule.decision.nextBeatMs(after: rule.nowMs, turns: Self.quarter) == .max,
            "a failed prime, nobody looks"
        )
        #expect(rule.on(.viewAppeared) == .ask("quarter 1", byPerson: false))
        _ = rule.on(.failed(AskDecisionTests.timeout))
        #expect(
            rule.decision.nextBeatMs(after: rule.nowMs, turns: Self.quarter) == 1_800_000,
            "a node open: once the name turned, and no backoff before it"
        )
        rule.nowMs = 1_800_000
        rule.wanted = "quarter 2"
        #expect(rule.on(.liveFrame(connection: 1)) == .ask("quarter 2", byPerson: false), "the frame the gate let by")
    }

    @Test func theGateHoldsBackFramesBeforeTheirTimeAndNothingElse() {
        let gate = BeatGate()
        let frame = SessionEvent.telemetry(
            TelemetryFrame(connection: 1, arrivalMs: 0, message: .tick(Tick(seq: 1, uptimeMs: 1)))
        )
        #expect(gate.admits(frame, nowMs: 0), "before the model first sets it, every frame passes")
        gate.set(dueMs: 100, follows: false, knownConnection: nil)
        #expect(!gate.admits(frame, nowMs: 99))
        #expect(gate.admits(frame, nowMs: 100))
        #expect(gate.admits(.streamLost(reason: "cut"), nowMs: 0))
        gate.set(dueMs: .max, follows: true, knownConnection: 1)
        #expect(!gate.admits(frame, nowMs: 1_000))
        let later = SessionEvent.telemetry(
            TelemetryFrame(connection: 2, arrivalMs: 0, message: .tick(Tick(seq: 1, uptimeMs: 1)))
        )
        #expect(gate.admits(later, nowMs: 1_000), "a frame on a new connection carries the stream to the model")
    }
}
