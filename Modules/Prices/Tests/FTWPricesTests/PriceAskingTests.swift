import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWPrices
import FTWSessionInterface
import FTWSessionTestSupport
import Foundation
import Testing

/// The price window's names (cache.md §1): the day and tomorrow's publish state, the quarter only while late.
@Suite struct PriceAskingTests {
    @Test func afterTwoTheWindowIsAskedEachQuarterWhileTomorrowIsLateAndNotOnceItArrives() async {
        let world = PricesWorld(at: "2026-12-02 13:50")
        defer { world.removeFolder() }
        world.box.publish(at: LocalTime.ms("2026-12-02 14:40"))
        let prices = world.prices()
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
            await world.streaming(for: .seconds(3 * 3600 + 10 * 60))
        }
        #expect(await world.priceAsks() == ["13:50", "14:00", "14:15", "14:30", "14:45"])
        #expect(await prices.tomorrowPublished)
        #expect(await prices.stored?.name == "prices 2026-12-02 Europe/Stockholm, tomorrow late at 14:45")
    }

    @Test func beforeTwoAWholeMorningOfViewsAsksOnce() async {
        let world = PricesWorld(at: "2026-12-02 07:00")
        defer { world.removeFolder() }
        let prices = world.prices()
        await world.with([prices]) { simulation in
            await world.streamReturns()
            while world.simulation.clock.nowMs < LocalTime.ms("2026-12-02 13:56") {
                prices.send(.viewAppeared)
                await world.streaming(for: .seconds(60))
                prices.send(.viewGone)
                await world.streaming(for: .seconds(3 * 60))
            }
            prices.send(.viewAppeared)
            await world.streaming(for: .seconds(3 * 60 + 50))
            #expect(LocalTime.clock(world.simulation.clock.nowMs) == "13:59")
            await simulation.settle()
        }
        #expect(await world.priceAsks() == ["07:00"])
        #expect(await prices.stored?.name == "prices 2026-12-02 Europe/Stockholm, tomorrow pending")
    }

    @Test func theDayTurningAsksOnce() async {
        let world = PricesWorld(at: "2026-12-02 23:50")
        defer { world.removeFolder() }
        world.box.publish(at: 0)
        let prices = world.prices()
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
            await world.streaming(for: .seconds(30 * 60))
        }
        #expect(await world.priceAsks() == ["23:50", "00:00"])
        #expect(await prices.window?.day.date == "2026-12-03")
        #expect(await world.session.sent.last?.request == .prices(window(from: "2026-12-03", to: "2026-12-05")))
    }

    @Test func theWindowIsLocalMidnightToTheMidnightAfterTomorrowAtTheEndOfTheOrder() async {
        let world = PricesWorld(at: "2026-12-02 09:30")
        defer { world.removeFolder() }
        let prices = world.prices()
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
        }
        let sent = await world.session.sent
        #expect(sent.map(\.request) == [.prices(window(from: "2026-12-02", to: "2026-12-04"))])
        #expect(sent.map(\.order) == [.rest])
    }

    @Test func aPullToRefreshSendsWhileTheWindowStandsAndGoesFirst() async {
        let world = PricesWorld(at: "2026-12-02 09:30")
        defer { world.removeFolder() }
        let prices = world.prices()
        await world.with([prices]) { simulation in
            await world.viewsOpen(prices)
            prices.send(.refresh)
            await simulation.settle()
        }
        #expect(await world.session.sent.map(\.order) == [.rest, .person])
    }

    @Test func nothingIsAskedUntilTheBoxsTimeZoneIsKnown() async {
        let world = PricesWorld(at: "2026-12-02 09:30", zone: nil)
        defer { world.removeFolder() }
        let prices = world.prices()
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
            await world.streaming(for: .seconds(60))
            #expect(await world.priceAsks().isEmpty)
            world.zone.current = LocalTime.stockholm
            await world.streaming(for: .seconds(10))
        }
        #expect(await world.priceAsks() == ["09:31"])
    }

    /// Found by reading the code: the first launch after pairing (or one whose `home-` file was dropped) knows no
    /// time zone yet, and a pull to refresh of prices was dropped without a frame while the plan's was sent.
    @Test func aPullToRefreshSendsBeforeTheTimeZoneIsKnownForTheUTCDayAndTheHomesDayFollows() async {
        let world = PricesWorld(at: "2026-12-02 09:30", zone: nil)
        defer { world.removeFolder() }
        let prices = world.prices()
        await world.with([prices]) { simulation in
            await world.viewsOpen(prices)
            prices.send(.refresh)
            await simulation.settle()
            #expect(await world.session.sent.map(\.order) == [.person], "a person's ask always sends")
            #expect(await prices.stored?.name == "prices 2026-12-02 GMT, tomorrow pending")
            world.zone.current = LocalTime.stockholm
            await world.streaming(for: .seconds(10))
        }
        let utcDay = PriceDay(containing: LocalTime.ms("2026-12-02 09:30"), in: .gmt)!
        #expect(
            await world.session.sent.map(\.request) == [
                .prices(PriceGet(fromMs: utcDay.startMs, toMs: utcDay.endMs)),
                .prices(window(from: "2026-12-02", to: "2026-12-04")),
            ],
            "the UTC day's window, then the home's once its zone is known"
        )
    }

    @Test func anAnswerThatDoesNotAddUpIsATypedFailureAndNeverShown() async {
        let world = PricesWorld(at: "2026-12-02 09:30")
        defer { world.removeFolder() }
        let start = LocalTime.ms("2026-12-02 00:00")
        world.box.price(
            Price(
                zone: "SE3",
                slots: [PriceSlot(startMs: start, durationMs: 0, spotMinor: 1, totalMinor: 2)],
                stale: true
            )
        )
        let prices = world.prices()
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
        }
        #expect(await prices.window == nil)
        #expect((await prices.failure as? PricesError)?.code == .badSlot, "the model's own error, not a string")
    }

    private func window(from: String, to: String) -> PriceGet {
        PriceGet(fromMs: LocalTime.ms("\(from) 00:00"), toMs: LocalTime.ms("\(to) 00:00"))
    }
}
