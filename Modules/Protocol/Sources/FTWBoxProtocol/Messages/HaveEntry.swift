/// A tile the app already holds, `hist.query.have[]`: the box skips a closed tile whose etag still matches.
public struct HaveEntry: NestedWireBody {
    /// The tile's id, such as `5m/1/40740`.
    public var tileId: String
    /// The etag of the copy the app holds.
    public var etag: String

    /// Makes an entry.
    public init(tileId: String, etag: String) {
        self.tileId = tileId
        self.etag = etag
    }

    /// Reads an entry.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "have"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        tileId = try reader.field("tileId").text()
        etag = try reader.field("etag").text()
    }

    /// `{tileId, etag}`.
    public var body: CBOR {
        ["tileId": .text(tileId), "etag": .text(etag)]
    }
}
