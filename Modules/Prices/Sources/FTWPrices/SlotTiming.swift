/// The checks every run of timed slots from the box must pass before a model keeps it: each slot lasts some time,
/// its end fits in 64 bits, and each starts no earlier than the one before it ends.
import FTWBus

enum SlotTiming {
    /// The end of a slot, or nil when it lasts no time or its end would not fit.
    static func end(startMs: Int64, durationMs: Int64) -> Int64? {
        guard durationMs > 0 else { return nil }
        let (end, overflow) = startMs.addingReportingOverflow(durationMs)
        return overflow ? nil : end
    }

    /// Checks slots given as (start, duration), oldest first.
    ///
    /// - Throws: ``PricesError`` with `.badSlot` or `.slotsOutOfOrder`, naming the slot at fault.
    static func check(_ slots: [(startMs: Int64, durationMs: Int64)]) throws(PricesError) {
        var previousEnd = Int64.min
        for (index, slot) in slots.enumerated() {
            guard let end = end(startMs: slot.startMs, durationMs: slot.durationMs) else {
                throw PricesError(.badSlot, "slot \(index) lasts \(slot.durationMs) ms from \(slot.startMs)")
            }
            guard slot.startMs >= previousEnd else {
                throw PricesError(.slotsOutOfOrder, "slot \(index) starts at \(slot.startMs), before \(previousEnd)")
            }
            previousEnd = end
        }
    }
}
