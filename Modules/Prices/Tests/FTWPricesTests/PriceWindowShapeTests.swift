import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWPrices
import FTWSessionInterface
import FTWSessionTestSupport
import Foundation
import Testing

/// What the window keeps: slots as the box sent them, whatever their length, and the time with no price as such.
@Suite struct PriceWindowShapeTests {
    private let day = PriceDay(containing: LocalTime.ms("2026-12-02 09:00"), in: LocalTime.stockholm)!
    private let hour: Int64 = 3_600_000

    private func slot(_ local: String, minutes: Int64 = 60, total: Int64 = 100) -> PriceSlot {
        PriceSlot(startMs: LocalTime.ms(local), durationMs: minutes * 60_000, spotMinor: total - 40, totalMinor: total)
    }

    @Test func aHoleALateStartAndAnEarlyEndAreKeptAsTimeWithNoPrice() throws {
        let slots = [
            slot("2026-12-02 01:00"), slot("2026-12-02 02:00"),
            slot("2026-12-02 04:00"), slot("2026-12-03 19:00"),
        ]
        let window = try PriceWindow(answer: Price(zone: "SE3", slots: slots, stale: true), day: day)
        let rates = window.rates
        #expect(
            window.timeline == [
                .noPrice(fromMs: LocalTime.ms("2026-12-02 00:00"), toMs: LocalTime.ms("2026-12-02 01:00")),
                .rate(rates[0]), .rate(rates[1]),
                .noPrice(fromMs: LocalTime.ms("2026-12-02 03:00"), toMs: LocalTime.ms("2026-12-02 04:00")),
                .rate(rates[2]),
                .noPrice(fromMs: LocalTime.ms("2026-12-02 05:00"), toMs: LocalTime.ms("2026-12-03 19:00")),
                .rate(rates[3]),
                .noPrice(fromMs: LocalTime.ms("2026-12-03 20:00"), toMs: LocalTime.ms("2026-12-04 00:00")),
            ]
        )
        #expect(window.hasHole)
        #expect(!window.tomorrowPublished, "an early end is late rates, asked again after 14:00")
        #expect(rates.map(\.totalMinor) == [100, 100, 100, 100], "prices stay integers in minor units")
    }

    @Test func aHoleInTodayIsNotLateRatesWhenTomorrowIsThere() throws {
        let slots = (0..<48).filter { $0 != 5 }.map { hourIndex in
            PriceSlot(startMs: day.startMs + Int64(hourIndex) * hour, durationMs: hour, spotMinor: 1, totalMinor: 2)
        }
        let window = try PriceWindow(answer: Price(zone: "SE3", slots: slots, stale: true), day: day)
        #expect(window.hasHole)
        #expect(window.tomorrowPublished)
        #expect(window.stale, "the box's own flag is kept as it came")
    }

    @Test(arguments: [15, 60] as [Int64])
    func slotsOfAnyLengthFillTheWindow(minutes: Int64) async {
        let world = PricesWorld(at: "2026-12-02 15:00")
        defer { world.removeFolder() }
        world.box.publish(at: 0)
        world.box.slots(of: minutes)
        let prices = world.prices()
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
        }
        let window = await prices.window
        #expect(window?.rates.count == Int(48 * 60 / minutes))
        #expect(window?.rates.allSatisfy { $0.durationMs == minutes * 60_000 } == true)
        #expect(window?.timeline.contains { if case .noPrice = $0 { true } else { false } } == false)
        #expect(window?.tomorrowPublished == true)
        #expect(window.map { ($0.zone, $0.currency) } ?? ("", "") == ("SE3", "SEK"))
    }

    @Test(arguments: [
        ("2026-03-28 12:00", 24, 23), ("2026-03-29 12:00", 23, 24), ("2026-10-24 12:00", 24, 25),
        ("2026-10-25 12:00", 25, 24), ("2026-12-02 12:00", 24, 24),
    ])
    func daysAreReadOnTheBoxsCalendarNotCountedInHours(local: String, todayHours: Int64, tomorrowHours: Int64) {
        let day = PriceDay(containing: LocalTime.ms(local), in: LocalTime.stockholm)!
        #expect(day.startMs == LocalTime.ms("\(local.prefix(10)) 00:00"))
        #expect(day.tomorrowMs - day.startMs == todayHours * hour)
        #expect(day.endMs - day.tomorrowMs == tomorrowHours * hour)
    }

    @Test(arguments: [("2026-03-29 15:00", 23 + 24), ("2026-10-25 15:00", 25 + 24)] as [(String, Int64)])
    func aDSTDayAsksAndFillsItsOwnLength(local: String, hours: Int64) async {
        let world = PricesWorld(at: local)
        defer { world.removeFolder() }
        world.box.publish(at: 0)
        let prices = world.prices()
        await world.with([prices]) { _ in
            await world.viewsOpen(prices)
        }
        guard case .prices(let get) = await world.session.sent.first?.request else {
            Issue.record("no price.get was sent")
            return
        }
        #expect(get.toMs - get.fromMs == hours * hour)
        #expect(await prices.window?.rates.count == Int(hours * 4))
        #expect(await prices.tomorrowPublished)
    }

    @Test func theDayIsReadInTheBoxsZone() {
        let instant = LocalTime.ms("2026-12-02 23:30")
        let newYork = PriceDay(containing: instant, in: TimeZone(identifier: "America/New_York")!)!
        let stockholm = PriceDay(containing: instant, in: LocalTime.stockholm)!
        #expect(stockholm.date == "2026-12-02")
        #expect(newYork.date == "2026-12-02")
        #expect(newYork.startMs - stockholm.startMs == 6 * hour)
        let tokyo = PriceDay(containing: instant, in: TimeZone(identifier: "Asia/Tokyo")!)!
        #expect(tokyo.date == "2026-12-03")
    }

    @Test(
        arguments: [
            ([(0, 0)], PricesError.Code.badSlot), ([(0, -5)], .badSlot), ([(Int64.max - 10, 3_600_000)], .badSlot),
            ([(3_600_000, 3_600_000), (0, 3_600_000)], .slotsOutOfOrder),
            ([(0, 3_600_000), (1_800_000, 3_600_000)], .slotsOutOfOrder),
        ] as [([(Int64, Int64)], PricesError.Code)]
    )
    func slotsThatDoNotAddUpAreRefusedWithTheirReason(slots: [(Int64, Int64)], code: PricesError.Code) {
        let answer = Price(
            zone: "SE3",
            slots: slots.map { PriceSlot(startMs: $0.0, durationMs: $0.1, spotMinor: 1, totalMinor: 2) },
            stale: false
        )
        let error = #expect(throws: PricesError.self) { try PriceWindow(answer: answer, day: day) }
        #expect(error?.code == code)
    }
}
