import FTWSealInterface

extension SealedAsk: SealedCodable {
    func encode(into writer: inout BinaryWriter) {
        writer.optional(stored) { $1.encode(into: &$0) }
        writer.optional(lackingOnBuild) { $0.text($1) }
    }

    init(from reader: inout BinaryReader) throws(SealedContentError) {
        stored = try reader.optional { reader throws(SealedContentError) in try StoredAnswer(from: &reader) }
        lackingOnBuild = try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 1024) }
    }
}
