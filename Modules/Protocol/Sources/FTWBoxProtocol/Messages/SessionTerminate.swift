/// `session.terminate` (box → app, lane 0): the box is ending the session, and why (§2.12).
public struct SessionTerminate: NestedWireBody {
    /// The wire type.
    public static let wireType = "session.terminate"

    /// Why; see ``TerminateReason/known`` for how the app reads an unknown one.
    public var reason: TerminateReason

    /// Makes a termination.
    public init(reason: TerminateReason) {
        self.reason = reason
    }

    /// Reads a termination.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        reason = try reader.field("reason").name()
    }

    /// `{reason}`.
    public var body: CBOR {
        ["reason": .text(reason.rawValue)]
    }
}
