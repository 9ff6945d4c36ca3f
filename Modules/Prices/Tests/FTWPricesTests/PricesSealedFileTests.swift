import FTWBoxProtocol
import FTWPrices
import FTWSealInterface
import FTWTestingTraits
import Testing

/// The price window and the plan in their sealed files: every field comes back as the box sent it, and a file that
/// is cut short or whose slots do not add up is refused with a typed error, never drawn.
@Suite struct PricesSealedFileTests {
    private static let file = "prices-deb7e3fa44c17f16"
    private let day = PriceDay(containing: LocalTime.ms("2026-12-02 09:00"), in: LocalTime.stockholm)!

    /// Today and tomorrow in quarters, with a hole and a first slot that started before the window.
    private func window() throws -> PriceWindow {
        let start = LocalTime.ms("2026-12-01 23:45")
        var slots = (0..<192).map { index in
            PriceSlot(
                startMs: start + Int64(index) * 900_000,
                durationMs: 900_000,
                spotMinor: Int64(index % 37) - 5,
                totalMinor: 80 + Int64(index % 53)
            )
        }
        slots.remove(at: 40)
        return try PriceWindow(answer: Price(zone: "SE3", currency: "SEK", slots: slots, stale: true), day: day)
    }

    private func plan() throws -> ShownPlan {
        let start = LocalTime.ms("2026-12-02 10:00")
        let slots = (0..<8).map { index in
            PlanSlot(
                startMs: start + Int64(index) * 900_000,
                batteryW: Int64(index) * -500,
                gridW: 1_200,
                priceMinor: index == 3 ? nil : 90,
                reason: index.isMultiple(of: 2) ? .cheapImport : .peakShaving
            )
        }
        return try ShownPlan(plan: Plan(rev: 1 << 40, uptimeMs: 5_000, slots: slots, stale: false, ceilingW: nil))
    }

    @Test func aWindowOfNinetySixAndMoreSlotsReadsBackAsWritten() throws {
        let window = try window()
        let bytes = SealedContents.encode(window)
        #expect(try SealedContents.decode(bytes, as: PriceWindow.self, file: Self.file) == window)
        #expect(bytes.count < window.rates.count * 12, "a few bytes a slot, not JSON's hundred")
    }

    @Test func aPlanReadsBackAsWritten() throws {
        let plan = try plan()
        #expect(try SealedContents.decode(SealedContents.encode(plan), as: ShownPlan.self, file: "plan") == plan)
        var ceiling = plan
        ceiling.ceilingW = 11_000
        ceiling.slots = []
        #expect(try SealedContents.decode(SealedContents.encode(ceiling), as: ShownPlan.self, file: "plan") == ceiling)
    }

    @Test(.ownThread) func everyPrefixOfAWindowIsRefused() throws {
        let bytes = SealedContents.encode(try window())
        for length in 0..<bytes.count {
            #expect(throws: SealedContentError.self, "a window cut to \(length) bytes") {
                try SealedContents.decode(Array(bytes.prefix(length)), as: PriceWindow.self, file: Self.file)
            }
        }
    }

    @Test func slotsThatOverlapInTheFileAreRefused() throws {
        let window = try window()
        var writer = BinaryWriter(reservingCapacity: 64)
        writer.raw(SealedContents.magic)
        writer.byte(SealedContents.version)
        var shifted = window
        shifted.rates = Array(window.rates.prefix(2))
        shifted.encode(into: &writer)
        var bytes = writer.bytes
        // The second slot's gap is the byte after the first slot's four numbers: make it start 1 ms early (-1).
        let gapAt = bytes.count - 1 - 2 - 1 - 3
        #expect(bytes[gapAt] == 0)
        bytes[gapAt] = 1
        let error = #expect(throws: SealedContentError.self) {
            try SealedContents.decode(bytes, as: PriceWindow.self, file: Self.file)
        }
        #expect(error?.code == .malformed)
        #expect(error?.description.hasPrefix("\(Self.file): price slot 1 starts -1 ms after the one before") == true)
    }
}
