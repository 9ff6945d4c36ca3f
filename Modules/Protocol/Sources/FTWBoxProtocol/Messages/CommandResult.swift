/// `cmd.result` (box → app, lane 0, no id): what actually happened to a command, from a read-back (§2.10).
public struct CommandResult: NestedWireBody {
    /// The wire type.
    public static let wireType = "cmd.result"

    /// The command this is about.
    public var cmdId: String
    /// What became of it.
    public var state: CommandState
    /// The value read back, when there was one.
    public var observed: Observed?
    /// Why it was rejected or expired.
    public var error: ErrorBody?

    /// Makes a result.
    public init(cmdId: String, state: CommandState, observed: Observed? = nil, error: ErrorBody? = nil) {
        self.cmdId = cmdId
        self.state = state
        self.observed = observed
        self.error = error
    }

    /// Reads a result.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        cmdId = try reader.field("cmdId").text()
        state = try reader.field("state").name()
        observed = try reader.optional("observed")?.decode()
        error = try reader.optional("error")?.decode()
    }

    /// `{cmdId, state, observed?, error?}` in the box's key order.
    public var body: CBOR {
        var map: CBORMap = ["cmdId": .text(cmdId), "state": .text(state.rawValue)]
        if let observed { map["observed"] = observed.body }
        if let error { map["error"] = error.body }
        return CBOR.map(map).inDeterministicOrder
    }
}
