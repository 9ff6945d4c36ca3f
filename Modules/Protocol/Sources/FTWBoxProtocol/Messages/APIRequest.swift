/// `api.req` (app → box, bulk lane, with an id): one call to the box's own HTTP API over the session (§2.9, §7).
///
/// There is deliberately no headers field: nothing the app writes can become a claim about the caller.
public struct APIRequest: NestedWireBody {
    /// The wire type.
    public static let wireType = "api.req"
    /// The ceiling the box clamps `maxBytes` to, and what the Swift client always asks for (8 MiB).
    public static let maxResponseBytes: Int64 = 8 << 20

    /// GET, HEAD, POST, PUT, PATCH or DELETE.
    public var method: String
    /// The path, starting `/api/`.
    public var path: String
    /// Query parameters, parsed (the box rebuilds the URL); left out when empty.
    public var query: [String: String]
    /// The request body (the box labels it JSON); left out when empty.
    public var requestBody: [UInt8]
    /// The most answer bytes wanted; nil leaves the box's ceiling.
    public var maxBytes: Int64?
    /// Set when the app ran a passkey ceremony for this call; left out when false.
    public var stepUp: Bool

    /// Makes a request.
    public init(
        method: String,
        path: String,
        query: [String: String] = [:],
        requestBody: [UInt8] = [],
        maxBytes: Int64? = APIRequest.maxResponseBytes,
        stepUp: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.requestBody = requestBody
        self.maxBytes = maxBytes
        self.stepUp = stepUp
    }

    /// Reads a request.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        method = try reader.field("method").text()
        path = try reader.field("path").text()
        query = try reader.optional("query")?.textMap() ?? [:]
        requestBody = try reader.optional("body")?.bytes() ?? []
        maxBytes = try reader.optional("maxBytes")?.int64()
        stepUp = try reader.optional("stepUp")?.bool() ?? false
    }

    /// `{method, path, query?, body?, maxBytes?, stepUp?}`, in that order.
    public var body: CBOR {
        var map: CBORMap = ["method": .text(method), "path": .text(path)]
        if !query.isEmpty { map["query"] = .textMap(query) }
        if !requestBody.isEmpty { map["body"] = .bytes(requestBody) }
        if let maxBytes { map["maxBytes"] = .int(maxBytes) }
        if stepUp { map["stepUp"] = .bool(true) }
        return .map(map)
    }
}
