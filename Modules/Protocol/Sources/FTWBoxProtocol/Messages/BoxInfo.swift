/// Which box answered, `hello_ok.box`.
public struct BoxInfo: NestedWireBody {
    /// The box's id.
    public var id: String
    /// The box's build.
    public var build: String
    /// The box's time zone, such as `Europe/Stockholm`.
    public var tz: String

    /// Makes the description.
    public init(id: String, build: String, tz: String) {
        self.id = id
        self.build = build
        self.tz = tz
    }

    /// Reads the description.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "box"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        id = try reader.field("id").text()
        build = try reader.field("build").text()
        tz = try reader.field("tz").text()
    }

    /// `{id, build, tz}`.
    public var body: CBOR {
        ["id": .text(id), "build": .text(build), "tz": .text(tz)]
    }
}
