/// What a command expects of the box, `cmd.expect`: the state revision it was made against, and its guards.
public struct Expect: NestedWireBody {
    /// The `controlRev` the user saw; any other value gets E_CONFLICT.
    public var rev: UInt64
    /// Preconditions, all of which must hold.
    public var guards: [Guard]

    /// Makes an expectation.
    public init(rev: UInt64, guards: [Guard] = []) {
        self.rev = rev
        self.guards = guards
    }

    /// Reads an expectation.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "expect"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        rev = try reader.field("rev").uint64()
        guards = try reader.field("guards").list()
    }

    /// `{rev, guards}`, in that order.
    public var body: CBOR {
        ["rev": .unsigned(rev), "guards": .list(guards)]
    }
}
