public import FTWSealInterface

/// `plan-<site>`: the plan's revision, uptime, flags and ceiling, then each slot's start as the gap after the one
/// before, its length, powers, price and reason.
extension ShownPlan: SealedCodable {
    /// More slots than two days of five-minute slots is no plan the box makes.
    static let slotLimit = 2 * 25 * 12

    /// Writes the plan.
    public func encode(into writer: inout BinaryWriter) {
        writer.varint(rev)
        writer.signed(uptimeMs)
        writer.bool(stale)
        writer.optional(ceilingW) { $0.signed($1) }
        writer.count(slots.count)
        var previousEnd: Int64 = 0
        for slot in slots {
            previousEnd = SlotTiming.write(
                startMs: slot.startMs,
                durationMs: slot.durationMs,
                after: previousEnd,
                to: &writer
            )
            writer.signed(slot.batteryW)
            writer.signed(slot.gridW)
            writer.optional(slot.priceMinor) { $0.signed($1) }
            writer.text(slot.reason)
        }
    }

    /// Reads a plan back, with the checks the box's plan passes: every slot lasts some time and starts no earlier
    /// than the one before it ends.
    ///
    /// - Throws: `SealedContentError`, `.malformed` for slots that do not add up.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        rev = try reader.varint()
        uptimeMs = try reader.signed()
        stale = try reader.bool()
        ceilingW = try reader.optional { reader throws(SealedContentError) in try reader.signed() }
        let count = try reader.count(atMost: Self.slotLimit, of: "plan slots")
        slots = []
        slots.reserveCapacity(count)
        var previousEnd: Int64 = 0
        for index in 0..<count {
            let timing = try SlotTiming.read(&reader, after: previousEnd, first: index == 0, slot: "plan slot \(index)")
            slots.append(
                PlannedSlot(
                    startMs: timing.startMs,
                    durationMs: timing.durationMs,
                    batteryW: try reader.signed(),
                    gridW: try reader.signed(),
                    priceMinor: try reader.optional { reader throws(SealedContentError) in try reader.signed() },
                    reason: try reader.text(atMost: 256)
                )
            )
            previousEnd = timing.endMs
        }
    }
}
