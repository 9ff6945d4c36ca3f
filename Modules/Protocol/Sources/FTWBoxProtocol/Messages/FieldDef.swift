/// One entry of the snapshot's field dictionary, `snap.dict[fid]`; the app caches it so deltas can be bare numbers.
public struct FieldDef: NestedWireBody {
    /// The field's name, such as `grid_w`.
    public var name: String
    /// The unit; nil (null on the wire) when the field has none, such as the mode.
    public var unit: String?
    /// The source whose freshness the field follows; nil (null) for fields the box computes itself.
    public var srcId: String?

    /// Makes an entry.
    public init(name: String, unit: String?, srcId: String?) {
        self.name = name
        self.unit = unit
        self.srcId = srcId
    }

    /// Reads an entry.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "dict"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        name = try reader.field("name").text()
        unit = try reader.optional("unit")?.text()
        srcId = try reader.optional("srcId")?.text()
    }

    /// `{name, unit, srcId}`, with null for a missing unit or source.
    public var body: CBOR {
        ["name": .text(name), "unit": .nullable(unit), "srcId": .nullable(srcId)]
    }
}
