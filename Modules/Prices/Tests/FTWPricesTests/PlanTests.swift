import FTWBoxProtocol
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWPrices
import FTWSessionInterface
import FTWSessionTestSupport
import Foundation
import Testing

/// The plan by the quarter hour (cache.md §1), pushed plans for free, and states told apart.
@Suite struct PlanTests {
    private static func plan(rev: UInt64, slots: Int = 4, stale: Bool = false, ceilingW: Int64? = nil) -> Plan {
        let start = LocalTime.ms("2026-12-02 10:00")
        return Plan(
            rev: rev,
            uptimeMs: 5_000,
            slots: (0..<slots).map { index in
                PlanSlot(
                    startMs: start + Int64(index) * 900_000,
                    batteryW: 1_500,
                    gridW: -200,
                    priceMinor: index == 0 ? nil : 80,
                    reason: .cheapImport
                )
            },
            stale: stale,
            ceilingW: ceilingW
        )
    }

    @Test func anOpenPlanViewAsksOncePerQuarterAndNotOnReappearing() async {
        let world = PricesWorld(at: "2026-12-02 10:01")
        defer { world.removeFolder() }
        world.box.plan(Self.plan(rev: 1))
        let plan = world.plan()
        await world.with([plan]) { simulation in
            await world.viewsOpen(plan)
            await world.streaming(for: .seconds(12 * 60))
            for _ in 0..<3 {
                plan.send(.viewGone)
                await world.streaming(for: .seconds(20))
                plan.send(.viewAppeared)
                await simulation.settle()
            }
            #expect(await world.planAsks() == ["10:01"], "reappearing within the quarter asks nothing")
            await world.session.drop()
            await simulation.advance(by: .seconds(30))
            await world.streamReturns()
            #expect(await world.planAsks() == ["10:01"], "nor does the stream coming back")
            await world.streaming(for: .seconds(60))
        }
        #expect(await world.planAsks() == ["10:01", "10:15"])
        #expect(await world.session.sent.map(\.order) == [.plan, .plan])
    }

    @Test func aPushedPlanCostsNoRequestAndReplacesTheShownPlan() async {
        let world = PricesWorld(at: "2026-12-02 10:01")
        defer { world.removeFolder() }
        world.box.plan(Self.plan(rev: 1))
        let plan = world.plan()
        await world.with([plan]) { simulation in
            await world.viewsOpen(plan)
            #expect(await plan.plan?.rev == 1)
            await world.session.publish(.planPushed(Self.plan(rev: 2, slots: 8, ceilingW: 11_000)))
            await simulation.settle()
            #expect(await plan.plan?.rev == 2)
            #expect(await plan.ceiling == .watts(11_000))
            await world.streaming(for: .seconds(5 * 60))
        }
        #expect(await world.planAsks() == ["10:01"])
        let relaunched = PricesWorld(at: "2026-12-02 10:07", folder: world.folder)
        let again = relaunched.plan()
        await again.restore()
        #expect(await again.plan?.rev == 2, "the pushed plan was sealed")
    }

    @Test func aPushedPlanThatDoesNotAddUpIsDropped() async {
        let world = PricesWorld(at: "2026-12-02 10:01")
        defer { world.removeFolder() }
        world.box.plan(Self.plan(rev: 1))
        let plan = world.plan()
        var broken = Self.plan(rev: 2)
        broken.slots[1].durationMs = 0
        let pushed = broken
        await world.with([plan]) { simulation in
            await world.viewsOpen(plan)
            await world.session.publish(.planPushed(pushed))
            await simulation.settle()
        }
        #expect(await plan.plan?.rev == 1)
    }

    @Test(arguments: [
        (plan(rev: 0, slots: 0, stale: true), "empty", PlanCeiling.none),
        (plan(rev: 3, slots: 4, stale: true), "stale", .none),
        (plan(rev: 3, slots: 4, stale: false), "current", .none),
        (plan(rev: 3, slots: 4, stale: false, ceilingW: 9_000), "current", .watts(9_000)),
        (plan(rev: 3, slots: 4, stale: true, ceilingW: 0), "stale", .watts(0)),
    ])
    func staleAndNoCeilingAreToldApartFromEmpty(answer: Plan, state: String, ceiling: PlanCeiling) async {
        let world = PricesWorld(at: "2026-12-02 10:01")
        defer { world.removeFolder() }
        world.box.plan(answer)
        let plan = world.plan()
        await world.with([plan]) { _ in
            #expect(await plan.state == .neverAsked)
            #expect(await plan.ceiling == .unknown)
            await world.viewsOpen(plan)
        }
        let shown = await plan.state
        switch (shown, state) {
        case (.empty(let held), "empty"), (.stale(let held), "stale"), (.current(let held), "current"):
            #expect(held.rev == answer.rev)
            #expect(held.stale == answer.stale)
        default:
            Issue.record("the plan reads as \(shown), not \(state)")
        }
        #expect(await plan.ceiling == ceiling)
        #expect(
            await plan.plan?.slots.map(\.priceMinor) == answer.slots.map(\.priceMinor),
            "a null price stays unknown"
        )
    }
}
