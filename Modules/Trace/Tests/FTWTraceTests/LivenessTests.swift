import FTWBoxProtocol
import FTWSessionInterface
import FTWTrace
import Testing

/// Only fields whose own reading is live are recorded; every beat records every live field, values carried forward.
@Suite struct LivenessTests {
    private typealias World = TraceWorld

    @Test func aDeviceThatStoppedAnsweringRecordsNothingAndOnlyItsFieldsStop() async {
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            await world.tick(uptimeMs: 101_000)
            let silentInverter = Delta(
                seq: 2,
                uptimeMs: 102_000,
                fields: [:],
                sources: Home.sources(atUptimeMs: 102_000, silent: [Home.inverter])
            )
            await world.frame(.delta(silentInverter, truncated: false), uptimeMs: 102_000)
            await world.tick(uptimeMs: 103_000)
        }
        #expect(await trace.points(field: FieldID.pv).count == 2)
        for field in [FieldID.grid, FieldID.load, FieldID.battery, FieldID.batterySoc, FieldID.mode, FieldID.ev] {
            #expect(await trace.points(field: field).count == 4, "field \(field)")
        }
    }

    @Test func aDeviceThatAnswersAgainRecordsAgainInANewRun() async {
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            let silent = Home.sources(atUptimeMs: 101_000, silent: [Home.inverter])
            await world.frame(
                .delta(Delta(seq: 1, uptimeMs: 101_000, fields: [:], sources: silent), truncated: false),
                uptimeMs: 101_000
            )
            for uptime in stride(from: Int64(102_000), through: 105_000, by: 1_000) {
                await world.tick(uptimeMs: uptime)
            }
            let back = Home.sources(atUptimeMs: 106_000)
            let delta = Delta(seq: 6, uptimeMs: 106_000, fields: [FieldID.pv: -2_000], sources: back)
            await world.frame(.delta(delta, truncated: false), uptimeMs: 106_000)
            await world.tick(uptimeMs: 107_000)
        }
        let points = await trace.points(field: FieldID.pv)
        #expect(points.map(\.value) == [-3_400, -2_000, -2_000])
        #expect(points.map(\.startsRun) == [true, true, false])
    }

    @Test func aHealthySourceStaysLivePastItsStaleLimitWithoutANewTable() async {
        let trace = await World.recording { world, trace in
            await world.stream(seconds: 90)
        }
        // The box resends its source table only when a state changes, never for lastOkMs alone.
        #expect(await trace.points(field: FieldID.grid).count == 90)
    }

    @Test func everyBeatCarriesUnchangedValuesForward() async {
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            let change = Delta(seq: 1, uptimeMs: 101_000, fields: [FieldID.grid: 900])
            await world.frame(.delta(change, truncated: false), uptimeMs: 101_000)
            await world.tick(uptimeMs: 102_000)
        }
        #expect(await trace.points(field: FieldID.grid).map(\.value) == [1_200, 900, 900])
        #expect(await trace.points(field: FieldID.load).map(\.value) == [1_700, 1_700, 1_700])
    }

    @Test func aTruncatedDeltaRecordsNoFieldAboveTheHighestItCarries() async {
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            let cut = Delta(seq: 1, uptimeMs: 101_000, fields: [FieldID.grid: 900])
            await world.frame(.delta(cut, truncated: true), uptimeMs: 101_000)
        }
        #expect(await trace.points(field: FieldID.mode).count == 2)
        #expect(await trace.points(field: FieldID.grid).count == 2)
        for field in [FieldID.pv, FieldID.battery, FieldID.batterySoc, FieldID.load, FieldID.ev] {
            #expect(await trace.points(field: field).count == 1, "field \(field)")
        }
    }

    @Test func aNewConnectionRecordsNothingUntilItsSnap() async {
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            await world.dropStream()
            await world.tick(uptimeMs: 103_000, connection: 2)
            await world.frame(.snap(Home.snap(uptimeMs: 104_000)), uptimeMs: 104_000, connection: 2)
        }
        let times = await trace.points(field: FieldID.grid).map(\.timeMs)
        #expect(times == [World.bootMs + 100_050, World.bootMs + 104_050])
    }

    @Test func aSnapWithOtherFieldsRecordsEachValueInItsOwnField() async {
        let first = Home.dict.filter { [FieldID.grid, FieldID.pv].contains($0.key) }
        let second = Home.dict.filter { [FieldID.load, FieldID.ev].contains($0.key) }
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000, dict: first)), uptimeMs: 100_000)
            await world.tick(uptimeMs: 101_000)
            // The box's dictionary changed (a device was replaced): as many fields as before, other ones.
            await world.frame(.snap(Home.snap(uptimeMs: 102_000, dict: second)), uptimeMs: 102_000)
            await world.tick(uptimeMs: 103_000)
        }
        #expect(await trace.points(field: FieldID.grid).map(\.value) == [1_200, 1_200])
        #expect(await trace.points(field: FieldID.pv).map(\.value) == [-3_400, -3_400])
        #expect(await trace.points(field: FieldID.load).map(\.value) == [1_700, 1_700])
        #expect(await trace.points(field: FieldID.ev).map(\.value) == [0, 0])
    }
}
