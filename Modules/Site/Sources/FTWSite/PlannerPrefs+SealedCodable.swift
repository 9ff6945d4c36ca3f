public import FTWSealInterface

/// `prefs-<site>`: the strategy, the reserve and the box's whole answer.
extension PlannerPrefs: SealedCodable {
    /// Writes the preferences.
    public func encode(into writer: inout BinaryWriter) {
        writer.optional(mode) { $0.text($1) }
        writer.optional(reserveSocPct) { $0.double($1) }
        writer.text(json)
    }

    /// Reads preferences back.
    ///
    /// - Throws: `SealedContentError` when a field is cut short or out of range.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        mode = try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 1024) }
        reserveSocPct = try reader.optional { reader throws(SealedContentError) in try reader.double() }
        json = try reader.text()
    }
}
