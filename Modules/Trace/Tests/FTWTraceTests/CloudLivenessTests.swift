import FTWBoxProtocol
import FTWClockSeamTesting
import FTWSessionInterface
import FTWTrace
import Testing

/// cache.md §4: the cloud feed is a live source of its own, live while its messages arrive within its gap rule (two
/// heartbeats plus the margin, 65 s by default) and stale from the moment they stop, live again on the next.
@Suite struct CloudLivenessTests {
    private static let gridField = TraceField(id: FieldID.grid)!

    @Test func theCloudIsLiveOnAMessageStaleAtItsGapRuleAfterTheLastAndLiveAgainOnTheNext() async {
        await TraceWorld().run { world in
            let trace = world.makeTrace(store: nil)
            let log = EventLog(trace.events)
            let clock = world.simulation.clock
            let startMs = clock.nowMs
            @Sendable func message() async {
                await trace.record(
                    cloud: CloudReading(sentAtMs: clock.nowMs, fields: [FieldID.grid: 1_200], isHeartbeat: true)
                )
                await world.simulation.settle()
            }
            await world.running(trace) {
                #expect(await trace.cloudLiveness() == nil, "no message yet: neither live nor stale")
                await message()
                #expect(await trace.cloudLiveness() == .live(sinceMs: startMs))
                await world.simulation.advance(by: .seconds(30))
                await message()
                await world.simulation.advance(by: .milliseconds(64_999))
                #expect(await trace.cloudLiveness() == .live(sinceMs: startMs), "within 65 s of the last message")
                #expect(await trace.trace(of: Self.gridField).cloudLiveness?.isLive == true)
                await world.simulation.advance(by: .milliseconds(1))
                let stale = StreamLiveness.stale(sinceMs: startMs + 95_000, lastBeatMs: startMs + 30_000)
                #expect(await trace.cloudLiveness() == stale)
                #expect(await trace.trace(of: Self.gridField).cloudLiveness == stale)
                await world.simulation.advance(by: .seconds(10))
                await message()
                #expect(await trace.cloudLiveness() == .live(sinceMs: startMs + 105_000))
            }
            let changes = await log.drain().compactMap { event -> StreamLiveness? in
                if case .cloudLiveness(let change) = event { change } else { nil }
            }
            #expect(
                changes == [
                    .live(sinceMs: startMs),
                    .stale(sinceMs: startMs + 95_000, lastBeatMs: startMs + 30_000),
                    .live(sinceMs: startMs + 105_000),
                ],
                "told once per change, the stale one at the rule's end on the trace's own clock"
            )
        }
    }
}
