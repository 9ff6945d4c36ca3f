public import FTWSealInterface

/// The cache's tests hold plain text as their models' answers.
extension String: SealedCodable {
    public func encode(into writer: inout BinaryWriter) {
        writer.text(self)
    }

    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        self = try reader.text(atMost: 1024)
    }
}
