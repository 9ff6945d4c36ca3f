import FTWBoxProtocol
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// The stream's gap rule on a running session: one deadline for the run, which every beat puts off, so the clock
/// waits for the last beat plus 3.5 beats and for nothing sooner; stale is said at that moment, live again on the
/// next beat, and a new connection's stream is watched by the same deadline.
@Suite struct BeatDeadlineTests {
    @Test func everyBeatPutsTheRuleOffAndItBreaksAtTheLastBeatPlusTheRule() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            let clock = world.simulation.clock
            for second in 1...10 {
                await world.box.push(.tick(Tick(seq: UInt64(second), uptimeMs: Int64(second) * 1_000)))
                await world.simulation.settle()
                #expect(
                    clock.nextDeadline == clock.now.advanced(by: .milliseconds(3_500)),
                    "beat \(second): the clock waits for an older beat's end of the rule"
                )
                await world.advance(by: .seconds(1))
            }
            let lastBeatMs = clock.nowMs - 1_000
            await world.advance(by: .milliseconds(2_499))
            #expect(await world.session.liveness?.isLive == true)
            await world.advance(by: .milliseconds(1))
            #expect(
                await Self.liveness(world).last == .stale(sinceMs: lastBeatMs + 3_500, lastBeatMs: lastBeatMs),
                "said when the rule broke, not when a later look came"
            )
            await world.advance(by: .seconds(20))
            await world.box.push(.tick(Tick(seq: 11, uptimeMs: 40_000)))
            await world.simulation.settle()
            #expect(await Self.liveness(world).last == .live(sinceMs: clock.nowMs))
            await world.advance(by: .milliseconds(3_500))
            #expect(await Self.liveness(world).last == .stale(sinceMs: clock.nowMs, lastBeatMs: clock.nowMs - 3_500))
        }
    }

    @Test func aNewConnectionsStreamIsWatchedAsTheFirstWas() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(2))
            await world.box.close(code: 1006, reason: "")
            await world.advance(by: .seconds(30))
            #expect(world.dialer.dialCount == 2)
            #expect(await world.session.liveness?.isLive == false, "the second stream's snap went stale long ago")
            for second in 1...3 {
                await world.box.push(.tick(Tick(seq: UInt64(second), uptimeMs: Int64(second) * 1_000)))
                await world.advance(by: .seconds(1))
            }
            let lastBeatMs = world.simulation.clock.nowMs - 1_000
            await world.advance(by: .milliseconds(2_500))
            #expect(
                await Self.liveness(world).suffix(2) == [
                    .live(sinceMs: lastBeatMs - 2_000), .stale(sinceMs: lastBeatMs + 3_500, lastBeatMs: lastBeatMs),
                ]
            )
        }
    }

    /// The liveness the session said, in order.
    private static func liveness(_ world: SessionWorld) async -> [StreamLiveness] {
        await world.recorder.events.compactMap { event in
            if case .liveness(let liveness) = event { liveness } else { nil }
        }
    }
}
