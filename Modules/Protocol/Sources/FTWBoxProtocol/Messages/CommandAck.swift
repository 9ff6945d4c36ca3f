/// `cmd.ack` (box → app, lane 0, no id): the box took the intent; not proof that anything moved (§2.10).
public struct CommandAck: NestedWireBody {
    /// The wire type.
    public static let wireType = "cmd.ack"

    /// The command acknowledged.
    public var cmdId: String
    /// The lease the command holds.
    public var leaseId: String
    /// Box uptime when the lease ends (15 minutes on).
    public var expiresAtMs: Int64

    /// Makes an acknowledgement.
    public init(cmdId: String, leaseId: String, expiresAtMs: Int64) {
        self.cmdId = cmdId
        self.leaseId = leaseId
        self.expiresAtMs = expiresAtMs
    }

    /// Reads an acknowledgement.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        cmdId = try reader.field("cmdId").text()
        leaseId = try reader.field("leaseId").text()
        expiresAtMs = try reader.field("expiresAtMs").milliseconds()
    }

    /// `{cmdId, leaseId, expiresAtMs}` in the box's key order.
    public var body: CBOR {
        let map: CBORMap = ["cmdId": .text(cmdId), "leaseId": .text(leaseId), "expiresAtMs": .int(expiresAtMs)]
        return CBOR.map(map).inDeterministicOrder
    }
}
