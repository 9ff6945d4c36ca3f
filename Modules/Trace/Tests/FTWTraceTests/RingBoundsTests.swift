import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
import FTWTrace
import Testing

/// Rings keep five minutes in fixed memory, and each source's gap rule splits runs.
@Suite struct RingBoundsTests {
    private typealias World = TraceWorld

    @Test func ringsNeverHoldMoreThanFiveMinutes() async {
        let trace = await World.recording { world, trace in
            await world.stream(seconds: 420)
        }
        for field in await trace.fields {
            let times = await trace.points(field: field).map(\.timeMs)
            #expect((times.last ?? 0) - (times.first ?? 0) <= 300_000, "field \(field)")
        }
    }

    @Test func memoryStaysBoundedAfterAnHourOfAppends() async {
        let world = World()
        await world.run { world in
            let trace = world.makeTrace()
            var afterFiveMinutes: TraceFootprint?
            await world.running(trace) {
                await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
                for second in Int64(1)...3_600 {
                    if second == 300 { afterFiveMinutes = await trace.footprint }
                    let uptime = 100_000 + second * 1_000
                    world.session.events.publish(
                        .telemetry(
                            TelemetryFrame(
                                connection: 1,
                                arrivalMs: World.bootMs + uptime + 50,
                                message: .tick(Tick(seq: UInt64(second), uptimeMs: uptime))
                            )
                        )
                    )
                    if second % 100 == 0 { await world.simulation.settle() }
                }
            }
            let footprint = await trace.footprint
            #expect(footprint == afterFiveMinutes)
            #expect(footprint.rings == 7)
            #expect(footprint.slots == 7 * world.configuration.ringCapacity)
            #expect(await trace.points(field: FieldID.grid).count == 301)
        }
    }

    @Test func aTraceKeepsNoMoreRingsThanItsLimit() async {
        let world = World(configuration: TraceConfiguration(maxFields: 3))
        let trace = world.makeTrace(store: nil)
        let many = Dictionary(uniqueKeysWithValues: (1...50).map { ($0, Int64($0)) })
        await trace.record(cloud: CloudReading(sentAtMs: World.tenOhOne, fields: many, isHeartbeat: false))
        #expect(await trace.fields == [1, 2, 3])
        #expect(await trace.footprint.rings == 3)
    }

    @Test(arguments: [
        (beat: Duration.seconds(1), joins: Int64(3_500), splits: Int64(3_501)),
        (beat: Duration.seconds(5), joins: Int64(17_500), splits: Int64(17_501)),
    ])
    func theBoxGapRuleIsThreeAndAHalfBeats(beat: Duration, joins: Int64, splits: Int64) async {
        let trace = await World.recording(configuration: TraceConfiguration(beatInterval: beat)) { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            await world.tick(uptimeMs: 100_000 + joins)
            await world.tick(uptimeMs: 100_000 + joins + splits)
        }
        #expect(await trace.points(field: FieldID.grid).map(\.startsRun) == [true, false, true])
    }
}
