/// One entry of the box's mode catalogue, `hello_ok.modes`; field 1 (mode) is an index into that list.
public struct ModeInfo: NestedWireBody {
    /// The mode's key, such as `self_consumption`.
    public var key: String
    /// The box's label, used when the app has no wording of its own for the key.
    public var label: String
    /// The box's longer explanation.
    public var tooltip: String
    /// Where the app places it: `primary`, `advanced` or `hidden`.
    public var tier: String

    /// Makes an entry.
    public init(key: String, label: String, tooltip: String, tier: String) {
        self.key = key
        self.label = label
        self.tooltip = tooltip
        self.tier = tier
    }

    /// Reads an entry.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "mode"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        key = try reader.field("key").text()
        label = try reader.field("label").text()
        tooltip = try reader.field("tooltip").text()
        tier = try reader.field("tier").text()
    }

    /// `{key, label, tooltip, tier}`.
    public var body: CBOR {
        ["key": .text(key), "label": .text(label), "tooltip": .text(tooltip), "tier": .text(tier)]
    }
}
