import FTWSealInterface

extension SlotTiming {
    /// Writes a slot's start as the gap after `previousEnd` (0 for back-to-back slots: one byte) and its length;
    /// returns its end.
    static func write(
        startMs: Int64,
        durationMs: Int64,
        after previousEnd: Int64,
        to writer: inout BinaryWriter
    )
        -> Int64
    {
        writer.signed(startMs &- previousEnd)
        writer.signed(durationMs)
        return end(startMs: startMs, durationMs: durationMs) ?? .max
    }

    /// Reads a slot's start and length written by ``write(startMs:durationMs:after:to:)``, with the checks of
    /// ``check(_:)``: it lasts some time, its end fits, and it starts no earlier than `previousEnd` unless it is
    /// the `first`.
    ///
    /// - Throws: `SealedContentError`, `.malformed` naming the slot when the checks fail.
    static func read(
        _ reader: inout BinaryReader,
        after previousEnd: Int64,
        first: Bool,
        slot: @autoclosure () -> String
    ) throws(SealedContentError) -> (startMs: Int64, durationMs: Int64, endMs: Int64) {
        let gap = try reader.signed()
        let durationMs = try reader.signed()
        let (startMs, overflow) = previousEnd.addingReportingOverflow(gap)
        guard !overflow, first || gap >= 0, let endMs = end(startMs: startMs, durationMs: durationMs) else {
            throw reader.malformed("\(slot()) starts \(gap) ms after the one before and lasts \(durationMs) ms")
        }
        return (startMs, durationMs, endMs)
    }
}
