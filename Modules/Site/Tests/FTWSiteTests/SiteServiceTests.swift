import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeamTesting
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Testing

/// The site's models as services: each runs once, a launch read never undoes what the stream brought meanwhile,
/// and a write that fails is told on the model's bus.
@Suite struct SiteServiceTests {
    @Test(arguments: ["home", "snapshot", "chargers"])
    func aSecondRunIsRefusedByNameAndTheFirstKeepsRunning(_ name: String) async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let service: any SiteService =
            switch name {
            case "home": world.home()
            case "snapshot": world.snapshot()
            default: world.chargers()
            }
        await world.with([service]) { _ in
            await #expect(throws: ServiceError.alreadyRunning(name)) { try await service.run() }
            (service as? ChargersModel)?.send(.viewAppeared)
            await world.streamReturns(timeZone: "Asia/Tokyo")
            await Self.frame(world, uptimeMs: 10_000)
        }
        switch service {
        case let home as HomeModel: #expect(home.timeZone == TimeZone(identifier: "Asia/Tokyo"))
        case let snapshot as SnapshotModel: #expect(await snapshot.shown?.isLive == true)
        default: #expect(await world.paths() == [ChargerList.kind.path])
        }
    }

    @Test func aHelloThatCameWhileTheLaunchReadWasSuspendedWinsAndIsNotWrittenAgain() async {
        let before = SiteWorld()
        defer { before.removeFolder() }
        await before.with([before.home()]) { _ in await before.streamReturns(timeZone: "Asia/Tokyo") }
        let world = SiteWorld(folder: before.folder)
        let held = HeldReadStore(world.store)
        let home = HomeModel(site: SiteWorld.site, store: held, sessionEvents: world.session.events)
        await Self.race(world, home, held) {
            await world.streamReturns(timeZone: "America/New_York")
        } afterwards: {
            let sealed = world.fileBytes(.home(SiteWorld.site))
            await world.background(for: .seconds(60))
            await world.streamReturns(timeZone: "America/New_York")
            #expect(world.fileBytes(.home(SiteWorld.site)) == sealed, "the file already holds this hello")
        }
        #expect(home.isLive)
        #expect(home.timeZone == TimeZone(identifier: "America/New_York"))
    }

    @Test func aSnapFromTheStreamWhileTheLaunchReadWasSuspendedWins() async {
        let before = SiteWorld()
        defer { before.removeFolder() }
        let first = before.snapshot()
        await before.with([first]) { _ in
            await Self.frame(before, uptimeMs: 10_000)
            await first.persist()
        }
        let world = SiteWorld(at: SiteWorld.tenOhOne + 60_000, folder: before.folder)
        let held = HeldReadStore(world.store)
        let snapshot = SnapshotModel(
            site: SiteWorld.site,
            store: held,
            sessionEvents: world.session.events,
            wallClock: world.simulation.clock
        )
        await Self.race(world, snapshot, held) { await Self.frame(world, uptimeMs: 70_000) }
        let shown = await snapshot.shown
        #expect(shown?.origin == .live(connection: 1))
        #expect(shown?.snapshot.uptimeMs == 70_000)
    }

    @Test func aSnapshotThatCannotBeSealedIsToldOnItsBus() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let snapshot = SnapshotModel(
            site: SiteWorld.site,
            store: InMemorySealedStore(keys: FailingKeyProvider(), events: EventBus()),
            sessionEvents: world.session.events,
            wallClock: world.simulation.clock
        )
        let log = snapshot.events.subscribe()
        await world.with([snapshot]) { _ in
            await Self.frame(world, uptimeMs: 10_000)
            await snapshot.persist()
        }
        snapshot.events.finish()
        #expect(
            await log.reduce(into: [KeepEvent]()) { $0.append($1) } == [.notKept(SealError(.keyUnavailable, "locked"))]
        )
        #expect(await snapshot.shown?.isLive == true)
    }

    @Test func aHomeThatCannotBeSealedIsToldOnItsBusAndStillKnown() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let home = HomeModel(
            site: SiteWorld.site,
            store: InMemorySealedStore(keys: FailingKeyProvider(), events: EventBus()),
            sessionEvents: world.session.events
        )
        let log = home.events.subscribe()
        await world.with([home]) { _ in await world.streamReturns(timeZone: "Asia/Tokyo") }
        home.events.finish()
        #expect(
            await log.reduce(into: [KeepEvent]()) { $0.append($1) } == [.notKept(SealError(.keyUnavailable, "locked"))]
        )
        #expect(home.timeZone == TimeZone(identifier: "Asia/Tokyo"))
        #expect(
            KeepEvent.notKept(SealError(.keyUnavailable, "locked")).description
                == "not kept, nothing on disk changed: locked"
        )
    }

    /// Starts `service`'s launch read on `held`, where it stays suspended, runs the service beside it while `body`
    /// drives the stream, then lets the read finish, runs `afterwards` and stops the service.
    private static func race(
        _ world: SiteWorld,
        _ service: any SiteService,
        _ held: HeldReadStore,
        _ body: @escaping @Sendable () async -> Void,
        afterwards: @escaping @Sendable () async -> Void = {}
    ) async {
        let answers = world.answers
        await world.session.setAnswer { answers.answer($0) }
        await world.simulation.run { simulation in
            let heldReads = await held.race(service, settle: simulation.settle, meanwhile: body, afterwards: afterwards)
            #expect(heldReads == 1)
        }
    }

    /// A snap on connection 1 at `uptimeMs`, and the world settles.
    private static func frame(_ world: SiteWorld, uptimeMs: Int64) async {
        let snap = SnapshotModelTests.snap(uptimeMs: uptimeMs)
        let frame = TelemetryFrame(connection: 1, arrivalMs: world.simulation.clock.nowMs, message: .snap(snap))
        await world.session.publish(.telemetry(frame))
        await world.simulation.settle()
    }
}
