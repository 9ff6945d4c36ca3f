/// `api.head` (box → app, bulk lane, echoes the id): a handler ran, and this is its status (§2.9, §7.2).
public struct APIHead: NestedWireBody {
    /// The wire type.
    public static let wireType = "api.head"

    /// The HTTP status; a 403 or 500 here is the answer, not a protocol error.
    public var status: Int
    /// `Content-Type`, `ETag` and `Last-Modified` only.
    public var headers: [String: String]
    /// The declared length; nil (null on the wire) when the handler declared none.
    public var len: Int64?

    /// Makes a head.
    public init(status: Int, headers: [String: String], len: Int64? = nil) {
        self.status = status
        self.headers = headers
        self.len = len
    }

    /// Reads a head.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        status = try reader.field("status").int()
        headers = try reader.field("headers").textMap()
        len = try reader.optional("len")?.int64()
    }

    /// `{status, headers, len}` in the box's key order, `len` null when undeclared.
    public var body: CBOR {
        let map: CBORMap = ["status": .int(Int64(status)), "headers": .textMap(headers), "len": .nullable(len)]
        return CBOR.map(map).inDeterministicOrder
    }
}
