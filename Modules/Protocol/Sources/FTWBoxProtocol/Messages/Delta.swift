/// `delta` (box → app, lane 0, no id): the fields that changed since the last frame (§2.5).
public struct Delta: NestedWireBody {
    /// The wire type.
    public static let wireType = "delta"

    /// The stream sequence number, shared with ticks.
    public var seq: UInt64
    /// Box uptime at the pulse.
    public var uptimeMs: Int64
    /// The changed fields, by field id (may be empty when only sources changed).
    public var fields: [Int: Int64]
    /// The whole source table, present only when a source's state, kind, name or staleness changed.
    public var sources: [String: SourceInfo]?
    /// The blocking sources, present together with ``sources``.
    ///
    /// The box leaves an empty list out, so when ``sources`` is present and this is absent it reads as empty.
    public var dispatchBlockedBy: [String]?

    /// Makes a delta.
    public init(
        seq: UInt64,
        uptimeMs: Int64,
        fields: [Int: Int64],
        sources: [String: SourceInfo]? = nil,
        dispatchBlockedBy: [String]? = nil
    ) {
        self.seq = seq
        self.uptimeMs = uptimeMs
        self.fields = fields
        self.sources = sources
        self.dispatchBlockedBy = dispatchBlockedBy
    }

    /// Reads a delta.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        seq = try reader.field("seq").uint64()
        uptimeMs = try reader.field("uptimeMs").milliseconds()
        fields = try reader.field("fields").fieldValues()
        sources = try reader.optional("sources")?.dictionary()
        dispatchBlockedBy = try reader.optional("dispatchBlockedBy")?.texts() ?? (sources == nil ? nil : [])
    }

    /// The delta in the box's key order; `sources` and `dispatchBlockedBy` left out when empty.
    public var body: CBOR {
        var map: CBORMap = ["seq": .unsigned(seq), "uptimeMs": .int(uptimeMs), "fields": .fieldValues(fields)]
        if let sources, !sources.isEmpty { map["sources"] = .dictionary(sources) }
        if let dispatchBlockedBy, !dispatchBlockedBy.isEmpty { map["dispatchBlockedBy"] = .texts(dispatchBlockedBy) }
        return CBOR.map(map).inDeterministicOrder
    }
}
