/// A precondition of a command, `cmd.expect.guards[]`: checked against fresh state at dispatch, not the state the
/// user was looking at.
public struct Guard: NestedWireBody {
    /// The field id compared.
    public var fid: Int
    /// The comparison.
    public var op: GuardOp
    /// The value compared with; the box reads it as float64 from any number.
    public var value: Double

    /// Makes a guard.
    public init(fid: Int, op: GuardOp, value: Double) {
        self.fid = fid
        self.op = op
        self.value = value
    }

    /// Reads a guard.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "guards"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        fid = try reader.field("fid").int()
        op = try reader.field("op").name()
        value = try reader.field("value").number()
    }

    /// `{fid, op, value}`, in that order; a whole value as an integer, as the reference client writes it.
    public var body: CBOR {
        ["fid": .int(Int64(fid)), "op": .text(op.rawValue), "value": .number(value)]
    }
}
