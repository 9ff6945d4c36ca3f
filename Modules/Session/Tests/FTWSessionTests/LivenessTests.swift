import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import Testing

@testable import FTWSession

/// Live is a state: the stream is live while its beats arrive within 3.5 beats, stale from the moment they stop, live
/// again on the next beat; `hello_ok` alone is not live; a close that backs off says when the next try is and why.
@Suite("Liveness and the retry, as transitions")
struct LivenessTests {
    typealias Bench = SessionStateTests.Bench

    /// The box's beat at `uptimeMs`: a tick, the stream's commonest frame.
    static func tick(_ bench: inout Bench, uptimeMs: Int64) throws -> [SessionAction] {
        let frame = try bench.boxFrame(.tick(Tick(seq: UInt64(uptimeMs), uptimeMs: uptimeMs)))
        return bench.step { $0.carrierEvent(.binary(frame), generation: 1) }
    }

    /// Fires the gap rule's deadline as the loop would, at its current arming.
    static func judge(_ bench: inout Bench) throws -> [SessionAction] {
        let token = try #require(bench.state.timers[.beatSilence])
        return bench.step { $0.timerFired(.beatSilence, token: token, arrivingBytes: 0) }
    }

    @Test("stale 3.5 s after the last beat, live on the next; a beat while live costs no timer")
    func staleAfterTheGapRuleAndLiveOnTheNextBeat() throws {
        let clock = ManualClock(originMs: 1_796_000_000_000)
        var bench = Bench(wallClock: clock)
        try bench.stream()
        let startMs = clock.nowMs
        let first = try Self.tick(&bench, uptimeMs: 10_000)
        #expect(first.liveness == [.live(sinceMs: startMs)], "the first beat makes the stream live")
        clock.advance(by: .seconds(1))
        let second = try Self.tick(&bench, uptimeMs: 11_000)
        #expect(second.count == 1 && second.liveness.isEmpty, "a beat while live is one publish: no timer, no word")
        clock.advance(by: .milliseconds(2_500))
        let early = try Self.judge(&bench)
        #expect(early.liveness.isEmpty && early.armed == [.beatSilence], "3.5 s after the start, 2.5 s after a beat")
        clock.advance(by: .seconds(1))
        let stale = try Self.judge(&bench)
        #expect(stale.liveness == [.stale(sinceMs: startMs + 4_500, lastBeatMs: startMs + 1_000)])
        #expect(stale.armed.isEmpty, "stale waits for the next beat, not a timer")
        #expect(bench.state.liveness?.isLive == false)
        clock.advance(by: .seconds(40))
        let back = try Self.tick(&bench, uptimeMs: 52_000)
        #expect(back.liveness == [.live(sinceMs: startMs + 44_500)])
        #expect(back.armed == [.beatSilence], "the rule counts again from the beat that ended the silence")
    }

    @Test("hello_ok alone is not live: a box that answers hello and never beats goes stale after the gap rule")
    func helloAloneIsNotLive() throws {
        let clock = ManualClock(originMs: 1_796_000_000_000)
        var bench = Bench(wallClock: clock)
        try bench.stream()
        #expect(bench.state.liveness == nil)
        clock.advance(by: .milliseconds(3_500))
        let stale = try Self.judge(&bench)
        #expect(stale.liveness == [.stale(sinceMs: clock.nowMs, lastBeatMs: nil)])
    }

    @Test("a close that backs off says when the next dial is, which attempt, and why")
    func backingOffIsSaid() throws {
        var bench = Bench()
        try bench.stream()
        let closed = bench.step { $0.carrierEvent(.closed(code: 1006, reason: ""), generation: 1) }
        let redial = try #require(
            closed.compactMap { action -> Duration? in
                if case .arm(.redial, let after, _) = action { after } else { nil }
            }.first
        )
        guard case .backingOff(let wait)? = closed.connections.last else {
            Issue.record("no backing-off state after the close: \(closed.connections)")
            return
        }
        #expect(wait.nextTryAtMs == SessionStateTests.FixedWallClock().nowMs + redial.wholeMilliseconds)
        #expect(wait.attempt == 2 && wait.because.message.contains("1006"))
        #expect(bench.state.liveness == nil, "the stream's word ends with its Noise session")
    }
}

extension [SessionAction] {
    var liveness: [StreamLiveness] {
        compactMap { if case .publish(.liveness(let liveness)) = $0 { liveness } else { nil } }
    }
}
