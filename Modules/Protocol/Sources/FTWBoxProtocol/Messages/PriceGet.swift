/// `price.get` (app → box, bulk lane, with an id): the price slots overlapping a wall-clock window (§2.7, §5).
public struct PriceGet: NestedWireBody {
    /// The wire type.
    public static let wireType = "price.get"

    /// Window start, wall clock.
    public var fromMs: Int64
    /// Window end, wall clock (exclusive).
    public var toMs: Int64

    /// Makes a request.
    public init(fromMs: Int64, toMs: Int64) {
        self.fromMs = fromMs
        self.toMs = toMs
    }

    /// Reads a request.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        fromMs = try reader.field("fromMs").milliseconds()
        toMs = try reader.field("toMs").milliseconds()
    }

    /// `{fromMs, toMs}`, in that order.
    public var body: CBOR {
        ["fromMs": .int(fromMs), "toMs": .int(toMs)]
    }
}
