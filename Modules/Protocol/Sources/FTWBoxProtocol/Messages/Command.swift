/// `cmd` (app → box, lane 0): an intent, not an instruction to hardware (§2.10).
public struct Command: NestedWireBody {
    /// The wire type.
    public static let wireType = "cmd"

    /// A UUIDv7 idempotency key; a repeat within the session replays the first answer.
    public var cmdId: String
    /// The operation.
    public var op: CommandOp
    /// The operation's arguments, in the order given.
    public var args: CBORMap
    /// Box uptime after which the box must not act on it: a command arriving late is a different command.
    public var notValidAfterMs: Int64
    /// The revision and guards it was made against.
    public var expect: Expect

    /// Makes a command.
    public init(cmdId: String, op: CommandOp, args: CBORMap, notValidAfterMs: Int64, expect: Expect) {
        self.cmdId = cmdId
        self.op = op
        self.args = args
        self.notValidAfterMs = notValidAfterMs
        self.expect = expect
    }

    /// Reads a command.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        cmdId = try reader.field("cmdId").text()
        op = try reader.field("op").name()
        args = try reader.field("args").map()
        notValidAfterMs = try reader.field("notValidAfterMs").milliseconds()
        expect = try reader.field("expect").decode()
    }

    /// `{cmdId, op, args, notValidAfterMs, expect}`, in that order.
    public var body: CBOR {
        [
            "cmdId": .text(cmdId), "op": .text(op.rawValue), "args": .map(args),
            "notValidAfterMs": .int(notValidAfterMs), "expect": expect.body,
        ]
    }
}
