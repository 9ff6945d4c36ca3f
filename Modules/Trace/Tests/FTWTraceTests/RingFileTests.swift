import FTWBoxProtocol
import FTWClockSeam
import FTWClockSeamTesting
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWTrace
import Foundation
import Testing

/// The sealed `ring-<site>`: what a node's curve opens with after a kill.
@Suite struct RingFileTests {
    private typealias World = TraceWorld

    @Test func afterAKillTheTraceOpensWithTheLastFiveMinutesEveryPointUnseen() async {
        await World().run { world in
            let first = await world.firstLaunch { _ in await world.stream(seconds: 400) }
            let before = await first.points(field: FieldID.grid)
            let second = await world.relaunch()
            let after = await second.points(field: FieldID.grid)
            #expect(after.count == 301)
            #expect(after.map(\.timeMs) == before.map(\.timeMs))
            #expect(after.map(\.value) == before.map(\.value))
            #expect(after.allSatisfy { !$0.seen })
            #expect(await second.fields == Home.dict.keys.sorted())
        }
    }

    @Test func aLaunchThatRecordedNothingNewWritesNoRingFile() async {
        await World().run { world in
            await world.firstLaunch { _ in await world.stream(seconds: 10) }
            // Every write seals under a fresh nonce, so the bytes on disk change with any rewrite.
            let sealed = try? Data(contentsOf: world.ringFileURL)
            let second = await world.relaunch()
            await second.persist()
            #expect(sealed != nil)
            #expect((try? Data(contentsOf: world.ringFileURL)) == sealed, "nothing new: no write, no fsync")
            await world.simulation.advance(by: .seconds(5))
            await world.running(second) { await world.stream(seconds: 1, connection: 2) }
            await second.persist()
            #expect((try? Data(contentsOf: world.ringFileURL)) != sealed, "a new live point is written")
        }
    }

    @Test func theFirstLiveReadingAfterARestoreStartsItsOwnRun() async {
        await World().run { world in
            await world.firstLaunch { _ in await world.stream(seconds: 10) }
            let second = world.makeTrace()
            await world.running(second) {
                // One second later: under the box's rule this would join the restored run.
                await world.simulation.advance(by: .seconds(1))
                await world.stream(seconds: 2, connection: 2)
            }
            let points = await second.points(field: FieldID.grid)
            let live = points.suffix(2)
            #expect(points.count == 12)
            #expect(live.map(\.startsRun) == [true, false])
            #expect(live.allSatisfy { $0.seen })
            #expect(live.first?.run != points[9].run)
        }
    }

    @Test func missedRunsFromTheNewestRestoredPointToNowAndThenToTheFirstLivePoint() async {
        await World().run { world in
            let first = await world.firstLaunch { _ in await world.stream(seconds: 10) }
            let newest = world.simulation.clock.nowMs
            #expect(await first.missed(nowMs: newest + 5_000) == nil)
            await world.simulation.advance(by: .seconds(120))
            let second = world.makeTrace()
            await world.running(second) {
                #expect(await second.missed() == .seconds(120))
                #expect(await second.missed(nowMs: newest + 130_000) == .seconds(130))
                await world.stream(seconds: 1, connection: 2)
            }
            #expect(await second.missed(nowMs: newest + 999_000) == .seconds(120))
        }
    }

    @Test func runsSurviveTheFile() async {
        await World().run { world in
            let first = await world.firstLaunch { trace in
                await world.stream(seconds: 5)
                await world.dropStream()
                await world.simulation.advance(by: .seconds(10))
                await world.stream(seconds: 5, connection: 2)
                let later = world.simulation.clock.nowMs + 60_000
                await trace.record(cloud: CloudReading(sentAtMs: later, fields: [FieldID.grid: 3], isHeartbeat: true))
            }
            let before = await first.points(field: FieldID.grid)
            let after = await world.relaunch().points(field: FieldID.grid)
            #expect(after.map(\.startsRun) == before.map(\.startsRun))
            #expect(after.map(\.source) == before.map(\.source))
            #expect(Self.runLengths(after.map(\.run)) == [5, 6])
            #expect(Self.runLengths(after.map(\.run)) == Self.runLengths(before.map(\.run)))
        }
    }

    @Test func runsRecordedUnderTheCloudRuleStayAsTheyWereAfterASwitchToTheRelay() async {
        await World().run { world in
            let trace = await world.firstLaunch { trace in
                for second: Int64 in [0, 20, 50] {
                    let reading = CloudReading(
                        sentAtMs: world.simulation.clock.nowMs + second * 1_000,
                        fields: [FieldID.grid: 1_000 + second],
                        isHeartbeat: second > 0
                    )
                    await trace.record(cloud: reading)
                }
                await world.simulation.advance(by: .seconds(60))
                await world.stream(seconds: 3)
            }
            #expect(Self.runLengths(await trace.samples(field: FieldID.grid).map(\.run)) == [3, 3])
            #expect(Self.runLengths(await world.relaunch().samples(field: FieldID.grid).map(\.run)) == [3, 3])
        }
    }

    @Test func aFiveMinuteTenFieldHomeAtOneHertzSealsWithinSixteenKilobytes() async {
        let world = World()
        let sealed = await world.runTenFieldHome()
        #expect(sealed == 8_728)
        #expect(sealed <= 16_384, "ring file is \(sealed) bytes")
    }

    @Test func aTamperedRingFileOpensAsEmpty() async {
        let world = World()
        let dropped = EventLog(world.sealEvents)
        await world.run { world in
            await world.firstLaunch { _ in await world.stream(seconds: 10) }
            guard var bytes = try? Data(contentsOf: world.ringFileURL) else {
                Issue.record("no ring file was written")
                return
            }
            bytes[bytes.count - 20] ^= 0x01
            #expect((try? bytes.write(to: world.ringFileURL)) != nil)
            let second = await world.relaunch()
            #expect(await second.fields.isEmpty)
            #expect(await second.missed(nowMs: 0) == nil)
        }
        let ring = SealedFileName.ring(World.site).fileName
        #expect(await dropped.drain().contains(.dropped(file: ring, reason: .authenticationFailed)))
    }

    @Test func theRingFileIsWrittenEveryFifteenSecondsWhileStreamingAndNotWhileDown() async {
        let world = World()
        let sealed = EventLog(world.sealEvents)
        await world.run { world in
            let trace = world.makeTrace()
            await world.running(trace) {
                await world.stream(seconds: 30)
                await world.dropStream()
                await world.simulation.advance(by: .seconds(120))
            }
        }
        let writes = await sealed.drain().filter { if case .written = $0 { true } else { false } }
        #expect(writes.count == 2)
    }

    private static func runLengths(_ runs: [Int]) -> [Int] {
        var lengths: [Int] = []
        var current: Int?
        for run in runs {
            if run == current {
                lengths[lengths.count - 1] += 1
            } else {
                lengths.append(1)
                current = run
            }
        }
        return lengths
    }
}
