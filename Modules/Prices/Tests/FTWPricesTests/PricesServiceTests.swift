import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeamTesting
import FTWPrices
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// The price window and the plan as services: each runs once, and a launch read never undoes a newer plan.
@Suite struct PricesServiceTests {
    private static func plan(rev: UInt64) -> Plan {
        let start = LocalTime.ms("2026-12-02 10:00")
        let slot = PlanSlot(startMs: start, batteryW: 1_500, gridW: -200, priceMinor: 80, reason: .cheapImport)
        return Plan(rev: rev, uptimeMs: 5_000, slots: [slot], stale: false, ceilingW: nil)
    }

    @Test func aSecondRunOfThePlanIsRefusedByNameAndTheFirstKeepsAsking() async {
        let world = PricesWorld(at: "2026-12-02 10:01")
        defer { world.removeFolder() }
        world.box.plan(Self.plan(rev: 1))
        let plan = world.plan()
        await world.with([plan]) { _ in
            await #expect(throws: ServiceError.alreadyRunning("plan")) { try await plan.run() }
            await world.viewsOpen(plan)
        }
        #expect(await world.planAsks() == ["10:01"])
        #expect(await plan.plan?.rev == 1)
    }

    @Test func aSecondRunOfThePriceWindowIsRefusedByName() async {
        let world = PricesWorld(at: "2026-12-02 10:01")
        defer { world.removeFolder() }
        let prices = world.prices()
        await world.with([prices]) { _ in
            await #expect(throws: ServiceError.alreadyRunning("prices")) { try await prices.run() }
            await world.viewsOpen(prices)
        }
        #expect(await world.priceAsks() == ["10:01"])
    }

    @Test func aPlanAnsweredWhileTheLaunchReadIsSuspendedIsKept() async {
        let before = PricesWorld(at: "2026-12-02 10:01")
        defer { before.removeFolder() }
        before.box.plan(Self.plan(rev: 1))
        let first = before.plan()
        await before.with([first]) { _ in await before.viewsOpen(first) }
        let world = PricesWorld(at: "2026-12-02 10:31", folder: before.folder)
        world.box.plan(Self.plan(rev: 2))
        let held = HeldReadStore(world.store)
        let plan = PlanModel(
            site: PricesWorld.site,
            session: world.session,
            store: held,
            wallClock: world.simulation.clock
        )
        let box = world.box
        await world.session.setAnswer { box.answer($0) }
        await world.simulation.run { simulation in
            let heldReads = await held.race(plan, settle: simulation.settle) { await world.viewsOpen(plan) }
            #expect(heldReads == 1)
        }
        #expect(await plan.plan?.rev == 2)
    }
}
