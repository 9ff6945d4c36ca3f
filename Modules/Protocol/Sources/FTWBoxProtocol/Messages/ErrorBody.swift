/// `error` (box → app, lane 0): a code and machine-readable args, never prose (§2.11).
///
/// With an envelope id it belongs to that request only; without one it is about the whole session.
public struct ErrorBody: NestedWireBody {
    /// The wire type.
    public static let wireType = "error"

    /// What went wrong.
    public var code: ErrorCode
    /// Whether asking again can succeed, as the box says.
    public var retryable: Bool
    /// How long to wait before asking again; nil when the box does not say.
    public var retryAfterMs: Int64?
    /// Details for the app's wording, such as `{subsystem: "prices"}`; left out when empty.
    public var args: CBORMap

    /// Makes an error.
    public init(code: ErrorCode, retryable: Bool? = nil, retryAfterMs: Int64? = nil, args: CBORMap = [:]) {
        self.code = code
        self.retryable = retryable ?? code.isRetryable
        self.retryAfterMs = retryAfterMs
        self.args = args
    }

    /// Reads an error.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        code = try reader.field("code").name()
        retryable = try reader.field("retryable").bool()
        retryAfterMs = try reader.optional("retryAfterMs")?.milliseconds()
        args = try reader.optional("args")?.map() ?? [:]
    }

    /// `{code, retryable, retryAfterMs?, args?}` in the box's key order.
    public var body: CBOR {
        var map: CBORMap = ["code": .text(code.rawValue), "retryable": .bool(retryable)]
        if let retryAfterMs { map["retryAfterMs"] = .int(retryAfterMs) }
        if !args.isEmpty { map["args"] = .map(args) }
        return CBOR.map(map).inDeterministicOrder
    }
}
