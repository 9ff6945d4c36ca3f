import FTWBoxProtocol
import FTWCache
import FTWClockSeam
import FTWPrices
import FTWSessionInterface
import FTWSessionTestSupport
import Foundation
import Testing

/// The window and the plan sealed before a kill show at once after it, and stand by the same names.
@Suite struct PricesAfterAKillTests {
    private func firstLife(in folder: URL) async {
        let world = PricesWorld(at: "2026-12-02 15:00", folder: folder)
        world.box.publish(at: 0)
        world.box.plan(Plan(rev: 4, uptimeMs: 1, slots: [], stale: true, ceilingW: nil))
        let prices = world.prices()
        let plan = world.plan()
        await world.with([prices, plan]) { _ in
            await world.viewsOpen(prices, plan)
        }
    }

    @Test func theWindowAndThePlanShowBeforeConnectingAndOnlyTheTurnedQuarterAsks() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prices-kill-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        await firstLife(in: folder)
        let world = PricesWorld(at: "2026-12-02 15:20", folder: folder)
        world.box.publish(at: 0)
        let prices = world.prices()
        let plan = world.plan()
        await prices.restore()
        await plan.restore()
        #expect(await prices.window?.day.date == "2026-12-02")
        #expect(await prices.tomorrowPublished)
        #expect(await plan.plan?.rev == 4)
        await world.with([prices, plan]) { _ in
            await world.viewsOpen(prices, plan)
            await world.streaming(for: .seconds(60))
        }
        #expect(await world.priceAsks().isEmpty, "today's window with tomorrow's rates still stands")
        #expect(await world.planAsks() == ["15:20"], "the plan was asked in the 15:00 quarter")
    }

    @Test func theNextDayTheRestoredWindowShowsAndIsAskedOnce() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prices-kill-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        await firstLife(in: folder)
        let world = PricesWorld(at: "2026-12-03 08:00", folder: folder)
        let prices = world.prices()
        await prices.restore()
        #expect(await prices.window?.day.date == "2026-12-02", "yesterday's window draws until today's lands")
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
            await world.streaming(for: .seconds(30 * 60))
        }
        #expect(await world.priceAsks() == ["08:00"])
        #expect(await prices.window?.day.date == "2026-12-03")
    }
}
