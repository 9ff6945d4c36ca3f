/// `api.chunk` (box → app, bulk lane, echoes the id): one piece of an answer, in order (§2.9).
public struct APIChunk: NestedWireBody {
    /// The wire type.
    public static let wireType = "api.chunk"
    /// How many bytes every chunk but the last holds.
    public static let chunkBytes = 12_288

    /// The chunk's place, from 0.
    public var seq: UInt32
    /// The bytes.
    public var data: [UInt8]

    /// Makes a chunk.
    public init(seq: UInt32, data: [UInt8]) {
        self.seq = seq
        self.data = data
    }

    /// Reads a chunk.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        seq = try reader.field("seq").uint32()
        data = try reader.field("data").bytes()
    }

    /// `{seq, data}` in the box's key order.
    public var body: CBOR {
        CBOR.map(["seq": .unsigned(UInt64(seq)), "data": .bytes(data)]).inDeterministicOrder
    }
}
