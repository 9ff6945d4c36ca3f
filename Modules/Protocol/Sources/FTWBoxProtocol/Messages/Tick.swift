/// `tick` (box → app, lane 0, no id): nothing changed, sent anyway so silence tells the relay nothing (§2.5).
public struct Tick: NestedWireBody {
    /// The wire type.
    public static let wireType = "tick"

    /// The stream sequence number, shared with deltas; a gap means frames were lost.
    public var seq: UInt64
    /// Box uptime at the pulse.
    public var uptimeMs: Int64

    /// Makes a tick.
    public init(seq: UInt64, uptimeMs: Int64) {
        self.seq = seq
        self.uptimeMs = uptimeMs
    }

    /// Reads a tick.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        seq = try reader.field("seq").uint64()
        uptimeMs = try reader.field("uptimeMs").milliseconds()
    }

    /// `{seq, uptimeMs}` in the box's key order.
    public var body: CBOR {
        CBOR.map(["seq": .unsigned(seq), "uptimeMs": .int(uptimeMs)]).inDeterministicOrder
    }
}
