import FTWBus
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
import FTWTrace
import Testing

/// The ring file's beat: every 15 s while live points come in, and nothing at all while the app sits in the
/// background with nothing left to write (an idle client wakes nobody), back on the same beat when it returns.
@Suite struct RingBeatTests {
    private static func writes(_ events: [TraceEvent]) -> Int {
        events.count { if case .persisted = $0 { true } else { false } }
    }

    @Test func theBeatStopsInTheBackgroundAndPicksUpTheSameBeatOnTheReturn() async {
        await TraceWorld().run { world in
            let trace = world.makeTrace()
            let log = EventLog(trace.events)
            let clock = world.simulation.clock
            await world.running(trace) {
                await world.stream(seconds: 3)
                world.session.events.publish(.connection(.idle))
                await trace.persist()
                await world.simulation.advance(by: .seconds(15))
                #expect(clock.sleeperCount == 0, "the beat still ticks in the background")
                await world.simulation.advance(by: .seconds(60))

                world.session.events.publish(.connection(.dialing(attempt: 1)))
                await world.simulation.settle()
                #expect(clock.nextDeadline?.offset == .seconds(90), "the beat left its grid")
                await world.stream(seconds: 2)
                await world.simulation.advance(by: .seconds(15))
            }
            // One write at the background, one at the first beat after the return (90 s), none in between.
            #expect(Self.writes(await log.drain()) == 2)
        }
    }

    @Test func pointsLeftUnsavedWhenTheStreamDropsAreWrittenAtTheNextBeat() async {
        await TraceWorld().run { world in
            let trace = world.makeTrace()
            let log = EventLog(trace.events)
            await world.running(trace) {
                await world.stream(seconds: 3)
                world.session.events.publish(.connection(.idle))
                await world.simulation.advance(by: .seconds(15))
            }
            #expect(Self.writes(await log.drain()) == 1)
        }
    }
}
