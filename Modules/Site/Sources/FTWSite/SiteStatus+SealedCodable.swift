public import FTWSealInterface

/// `status-<site>`: the version, the mode and the box's whole answer.
extension SiteStatus: SealedCodable {
    /// Writes the status.
    public func encode(into writer: inout BinaryWriter) {
        writer.optional(version) { $0.text($1) }
        writer.optional(mode) { $0.text($1) }
        writer.text(json)
    }

    /// Reads a status back.
    ///
    /// - Throws: `SealedContentError` when a field is cut short or out of range.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        version = try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 1024) }
        mode = try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 1024) }
        json = try reader.text()
    }
}
