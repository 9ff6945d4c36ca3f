/// The protocol versions an app speaks, `hello.proto`: a range, never a demand for one version, so no app is ever
/// walled off for being old.
public struct ProtoRange: NestedWireBody {
    /// The oldest version spoken.
    public var min: Int
    /// The newest version spoken.
    public var max: Int

    /// Makes a range.
    public init(min: Int, max: Int) {
        self.min = min
        self.max = max
    }

    /// What this client speaks: versions 0 (the frozen floor) to 1.
    public static let current = ProtoRange(min: 0, max: 1)

    /// Reads the range.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "proto"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        min = try reader.field("min").int()
        max = try reader.field("max").int()
    }

    /// `{min, max}`.
    public var body: CBOR {
        ["min": .int(Int64(min)), "max": .int(Int64(max))]
    }
}
