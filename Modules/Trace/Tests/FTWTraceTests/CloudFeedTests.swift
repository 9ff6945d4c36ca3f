import FTWBoxProtocol
import FTWClockSeam
import FTWClockSeamTesting
import FTWTrace
import Testing

/// The cloud feed: a second live source, stamped with the cloud's send time, under its own gap rule.
@Suite struct CloudFeedTests {
    private typealias World = TraceWorld
    private static let start = World.tenOhOne

    private static func heartbeat(atSecond second: Int64, grid: Int64 = 1_200) -> CloudReading {
        CloudReading(sentAtMs: start + second * 1_000, fields: [FieldID.grid: grid], isHeartbeat: true)
    }

    @Test func heartbeatsFortySecondsApartJoinAndSeventyApartSplit() async {
        let world = World()
        let trace = world.makeTrace(store: nil)
        for second: Int64 in [0, 40, 110, 150] { await trace.record(cloud: Self.heartbeat(atSecond: second)) }
        let points = await trace.points(field: FieldID.grid)
        #expect(points.map(\.startsRun) == [true, false, true, false])
        #expect(points[0].run == points[1].run)
        #expect(points[1].run != points[2].run)
        #expect(points.allSatisfy { $0.source == .cloud && $0.seen })
    }

    @Test func cloudPointsAreStampedWithTheSendTime() async {
        let world = World()
        let trace = world.makeTrace(store: nil)
        let change = CloudReading(sentAtMs: Self.start + 1_234, fields: [FieldID.grid: 700], isHeartbeat: false)
        await trace.record(cloud: Self.heartbeat(atSecond: 0))
        await trace.record(cloud: change)
        #expect(await trace.points(field: FieldID.grid).map(\.timeMs) == [Self.start, Self.start + 1_234])
        #expect(await trace.points(field: FieldID.grid).map(\.value) == [1_200, 700])
    }

    @Test func aFieldMissingFromAMessageRecordsNothing() async {
        let world = World()
        let trace = world.makeTrace(store: nil)
        let both = CloudReading(sentAtMs: Self.start, fields: [FieldID.grid: 1, FieldID.pv: -2], isHeartbeat: false)
        await trace.record(cloud: both)
        await trace.record(cloud: Self.heartbeat(atSecond: 30))
        #expect(await trace.points(field: FieldID.grid).count == 2)
        #expect(await trace.points(field: FieldID.pv).count == 1)
    }

    @Test func aMessageNotAfterTheNewestPointIsDropped() async {
        let world = World()
        let trace = world.makeTrace(store: nil)
        await trace.record(cloud: Self.heartbeat(atSecond: 30))
        await trace.record(cloud: Self.heartbeat(atSecond: 10))
        await trace.record(cloud: Self.heartbeat(atSecond: 30, grid: 5))
        #expect(await trace.points(field: FieldID.grid).map(\.timeMs) == [Self.start + 30_000])
    }

    @Test func theBoxStreamWinsWhileItIsFresh() async {
        let trace = await World.recording { world, trace in
            await world.stream(seconds: 3)
            await trace.record(
                cloud: CloudReading(
                    sentAtMs: world.simulation.clock.nowMs + 500,
                    fields: [FieldID.grid: 9],
                    isHeartbeat: false
                )
            )
            await world.dropStream()
            await world.simulation.advance(by: .seconds(5))
            await trace.record(
                cloud: CloudReading(
                    sentAtMs: world.simulation.clock.nowMs,
                    fields: [FieldID.grid: 8],
                    isHeartbeat: false
                )
            )
        }
        let points = await trace.points(field: FieldID.grid)
        #expect(points.map(\.source) == [.box, .box, .box, .cloud])
        #expect(points.map(\.value) == [1_200, 1_200, 1_200, 8])
    }
}
