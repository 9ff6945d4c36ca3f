public import FTWSealInterface

extension StoredAnswer: SealedCodable {
    /// Writes the answer, the name it was asked under and when.
    public func encode(into writer: inout BinaryWriter) {
        answer.encode(into: &writer)
        writer.text(name.rawValue)
        writer.signed(askedAtMs)
    }

    /// Reads an answer back with its name and time.
    ///
    /// - Throws: `SealedContentError` from the answer's fields or a name longer than any name is.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        answer = try Answer(from: &reader)
        name = AskName(try reader.text(atMost: 1024))
        askedAtMs = try reader.signed()
    }
}
