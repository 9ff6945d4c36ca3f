import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSealInterface
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Synchronization
import Testing

/// The last snapshot: built from the stream, sealed at persist, drawn at launch as from the cache.
@Suite struct SnapshotModelTests {
    static let gridW = 1
    static let batteryW = 2

    static func snap(uptimeMs: Int64 = 10_000) -> Snap {
        Snap(
            uptimeMs: uptimeMs,
            controlRev: 7,
            dict: [
                gridW: FieldDef(name: "grid_w", unit: "W", srcId: "meter"),
                batteryW: FieldDef(name: "battery_w", unit: "W", srcId: "inverter"),
            ],
            fields: [gridW: 1_200, batteryW: -300],
            sources: ["meter": SourceInfo(name: "meter", lastOkMs: 9_000, staleAfterMs: 60_000, state: .live)]
        )
    }

    private func frame(_ world: SiteWorld, _ message: TelemetryFrame.Message, connection: Int = 1) async {
        let frame = TelemetryFrame(connection: connection, arrivalMs: world.simulation.clock.nowMs, message: message)
        await world.session.publish(.telemetry(frame))
        await world.simulation.settle()
    }

    @Test func theStreamBuildsTheSnapshotFromASnapAndItsDeltas() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let model = world.snapshot()
        await world.with([model]) { simulation in
            await frame(world, .snap(Self.snap()))
            await simulation.advance(by: .seconds(1))
            await frame(world, .delta(Delta(seq: 1, uptimeMs: 11_000, fields: [Self.gridW: 900]), truncated: false))
            await simulation.advance(by: .seconds(1))
            await frame(world, .tick(Tick(seq: 2, uptimeMs: 12_000)))
        }
        let shown = await model.shown
        #expect(shown?.origin == .live(connection: 1))
        #expect(shown?.snapshot.fields == [Self.gridW: 900, Self.batteryW: -300])
        #expect(shown?.snapshot.uptimeMs == 12_000)
        #expect(shown?.snapshot.takenAtMs == SiteWorld.tenOhOne + 2_000)
        #expect(shown?.snapshot.dict[Self.gridW]?.name == "grid_w")
    }

    /// A tick and a delta that changes no field confirm the readings at a newer uptime: the model says so, so a
    /// screen that shows each reading's age reads it again instead of counting the age from the last change.
    @Test func everyBeatIsToldBecauseItMovesTheReadingsMoment() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let model = world.snapshot()
        let told = Mutex<[SnapshotModel.Change]>([])
        let watch = model.changes.subscribe { change in
            told.withLock { $0.append(change) }
            return false
        }
        await world.with([model]) { simulation in
            await frame(world, .snap(Self.snap()))
            await simulation.advance(by: .seconds(1))
            await frame(world, .tick(Tick(seq: 1, uptimeMs: 11_000)))
            await simulation.advance(by: .seconds(1))
            await frame(world, .delta(Delta(seq: 2, uptimeMs: 12_000, fields: [:]), truncated: false))
        }
        #expect(told.withLock { $0 } == [.live, .live, .live])
        let moment = await model.shown?.asOf(field: Self.gridW).moment
        #expect(moment == SiteWorld.tenOhOne + 2_000, "the reading is as of the last beat, not of the snap")
        withExtendedLifetime(watch) {}
    }

    @Test func aDeltaFromAConnectionAlreadyGoneIsNotPassedOffAsLive() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let model = world.snapshot()
        await world.with([model]) { _ in
            await frame(world, .snap(Self.snap()), connection: 2)
            await frame(
                world,
                .delta(Delta(seq: 9, uptimeMs: 11_000, fields: [Self.gridW: 5]), truncated: false),
                connection: 1
            )
            await frame(world, .tick(Tick(seq: 10, uptimeMs: 12_000)), connection: 1)
        }
        let shown = await model.shown
        #expect(shown?.origin == .live(connection: 2))
        #expect(shown?.snapshot.fields[Self.gridW] == 1_200)
        #expect(shown?.snapshot.uptimeMs == 10_000)
    }

    @Test func aPersistedSnapshotDrawsAtLaunchAsFromTheCacheWithItsAge() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let model = world.snapshot()
        await world.with([model]) { simulation in
            await frame(world, .snap(Self.snap()))
            await simulation.advance(by: .seconds(30))
            await model.persist()
        }
        let relaunched = SiteWorld(at: SiteWorld.tenOhOne + 10 * 60_000, folder: world.folder)
        let again = relaunched.snapshot()
        await again.restore()
        let shown = await again.shown
        #expect(shown?.origin == .cache(savedAtMs: SiteWorld.tenOhOne + 30_000))
        #expect(shown?.isLive == false)
        let age: Int64? = shown?.ageMs(nowMs: relaunched.simulation.clock.nowMs)
        #expect(age == 600_000)
        #expect(shown?.snapshot.fields[Self.gridW] == 1_200)
    }

    @Test func aRestoredSnapshotIsNeverWrittenBackAsIfFresh() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        await world.with([world.snapshot()]) { _ in }
        let first = world.snapshot()
        await world.with([first]) { _ in
            await frame(world, .snap(Self.snap()))
            await first.persist()
        }
        let sealed = world.fileBytes(.snapshot(SiteWorld.site))
        let relaunched = SiteWorld(at: SiteWorld.tenOhOne + 60_000, folder: world.folder)
        let again = relaunched.snapshot()
        await relaunched.with([again]) { _ in
            await frame(relaunched, .delta(Delta(seq: 9, uptimeMs: 1, fields: [Self.gridW: 5]), truncated: false))
            await frame(relaunched, .tick(Tick(seq: 10, uptimeMs: 2)))
            await again.persist()
        }
        #expect(relaunched.fileBytes(.snapshot(SiteWorld.site)) == sealed, "inactive and background wrote nothing")
        #expect(await again.shown?.isLive == false, "a delta without its snap does not make cached readings live")
        #expect(await again.shown?.snapshot.fields[Self.gridW] == 1_200)
    }

    @Test func theFirstLiveSnapReplacesTheRestoredOneAndIsSealedAgain() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let first = world.snapshot()
        await world.with([first]) { _ in
            await frame(world, .snap(Self.snap()))
            await first.persist()
        }
        let relaunched = SiteWorld(at: SiteWorld.tenOhOne + 60_000, folder: world.folder)
        let again = relaunched.snapshot()
        await relaunched.with([again]) { _ in
            await frame(relaunched, .snap(Self.snap(uptimeMs: 70_000)))
            await again.persist()
        }
        #expect(await again.shown?.origin == .live(connection: 1))
        let third = SiteWorld(at: SiteWorld.tenOhOne + 120_000, folder: world.folder).snapshot()
        await third.restore()
        #expect(await third.shown?.snapshot.uptimeMs == 70_000)
        #expect(await third.shown?.origin == .cache(savedAtMs: SiteWorld.tenOhOne + 60_000))
    }
}
