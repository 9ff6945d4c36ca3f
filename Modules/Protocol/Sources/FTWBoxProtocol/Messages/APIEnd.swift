/// `api.end` (box → app, bulk lane, echoes the id): the answer is complete, or cut off (§2.9).
public struct APIEnd: NestedWireBody {
    /// The wire type.
    public static let wireType = "api.end"

    /// The total bytes sent.
    public var bytes: Int64
    /// Set when the answer ran past the ceiling and stops here; the app treats it as a failure.
    public var truncated: Bool

    /// Makes the end.
    public init(bytes: Int64, truncated: Bool = false) {
        self.bytes = bytes
        self.truncated = truncated
    }

    /// Reads the end.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        bytes = try reader.field("bytes").int64()
        truncated = try reader.field("truncated").bool()
    }

    /// `{bytes, truncated}` in the box's key order.
    public var body: CBOR {
        CBOR.map(["bytes": .int(bytes), "truncated": .bool(truncated)]).inDeterministicOrder
    }
}
