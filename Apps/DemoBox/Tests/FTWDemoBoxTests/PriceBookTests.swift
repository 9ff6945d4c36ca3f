import FTWBoxProtocol
import Testing

@testable import FTWDemoBox

/// The stale rules on slot lists the demo's own table never has (its days have no holes).
@Suite struct PriceBookTests {
    private static func slot(_ startMs: Int64, _ durationMs: Int64 = 900_000) -> PriceSlot {
        PriceSlot(startMs: startMs, durationMs: durationMs, spotMinor: 50, totalMinor: 119)
    }

    @Test func aHoleBetweenTwoSlotsMakesTheAnswerStale() {
        let whole = [Self.slot(0), Self.slot(900_000), Self.slot(1_800_000)]
        #expect(!PriceBook.isStale(whole, fromMs: 0, toMs: 2_700_000))
        #expect(PriceBook.isStale([whole[0], whole[2]], fromMs: 0, toMs: 2_700_000))
    }

    @Test func hourlySlotsCoverTheirWholeLength() {
        #expect(!PriceBook.isStale([Self.slot(0, 3_600_000)], fromMs: 0, toMs: 3_600_000))
        #expect(PriceBook.isStale([], fromMs: 0, toMs: 1))
        #expect(PriceBook.isStale([Self.slot(900_000)], fromMs: 0, toMs: 1_800_000))
        #expect(PriceBook.isStale([Self.slot(0)], fromMs: 0, toMs: 1_800_000))
    }

    @Test func theTableIsReadAtMostEightDaysButJudgedOnTheWindowAsked() {
        let zone = LocalZone(identifier: "Europe/Stockholm")
        let book = PriceBook(
            zone: zone,
            zoneName: "SE3",
            currency: "SEK",
            publishMsIntoDay: 13 * 3_600_000,
            firstDayStartMs: 0
        )
        let midnight: Int64 = 1_796_166_000_000
        let day: Int64 = 86_400_000
        let answer = book.answer(fromMs: midnight - 10 * day, toMs: midnight, nowMs: midnight + 3_600_000, late: false)
        #expect(answer.slots.count == 8 * 96)
        #expect(answer.slots.last.map { $0.startMs + $0.durationMs } == midnight - 2 * day)
        #expect(answer.stale)
    }
}
