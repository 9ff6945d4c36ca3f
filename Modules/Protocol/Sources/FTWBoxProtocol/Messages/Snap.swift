/// `snap` (box → app, bulk lane, no id): the whole site, after the first `sub` and whenever `controlRev` moves
/// (§2.4).
public struct Snap: NestedWireBody {
    /// The wire type.
    public static let wireType = "snap"

    /// Box uptime when the snapshot was taken.
    public var uptimeMs: Int64
    /// The per-site counter of controllable state; commands echo it in `expect.rev`.
    public var controlRev: UInt64
    /// What each field id means, by field id.
    public var dict: [Int: FieldDef]
    /// Every field's value, by field id.
    public var fields: [Int: Int64]
    /// Every source's freshness, by source id.
    public var sources: [String: SourceInfo]
    /// The sources currently stopping dispatch; may be empty.
    public var dispatchBlockedBy: [String]

    /// Makes a snapshot.
    public init(
        uptimeMs: Int64,
        controlRev: UInt64,
        dict: [Int: FieldDef],
        fields: [Int: Int64],
        sources: [String: SourceInfo],
        dispatchBlockedBy: [String] = []
    ) {
        self.uptimeMs = uptimeMs
        self.controlRev = controlRev
        self.dict = dict
        self.fields = fields
        self.sources = sources
        self.dispatchBlockedBy = dispatchBlockedBy
    }

    /// Reads a snapshot.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        uptimeMs = try reader.field("uptimeMs").milliseconds()
        controlRev = try reader.field("controlRev").uint64()
        var dict: [Int: FieldDef] = [:]
        for (id, value) in try reader.field("dict").byFieldID() { dict[id] = try value.decode() }
        self.dict = dict
        fields = try reader.field("fields").fieldValues()
        sources = try reader.field("sources").dictionary()
        dispatchBlockedBy = try reader.field("dispatchBlockedBy").texts()
    }

    /// The snapshot in the box's key order, field ids as decimal text keys.
    public var body: CBOR {
        let map: CBORMap = [
            "uptimeMs": .int(uptimeMs), "controlRev": .unsigned(controlRev),
            "dict": .sorted(dict.map { (String($0.key), $0.value.body) }), "fields": .fieldValues(fields),
            "sources": .dictionary(sources), "dispatchBlockedBy": .texts(dispatchBlockedBy),
        ]
        return CBOR.map(map).inDeterministicOrder
    }
}
