/// Who is asking, `hello.app`: the build and the kind of client (`"native"` for this one, `"pwa"` for the web).
public struct AppInfo: NestedWireBody {
    /// The app's build string.
    public var build: String
    /// The kind of client.
    public var ua: String

    /// Makes the description.
    public init(build: String, ua: String = "native") {
        self.build = build
        self.ua = ua
    }

    /// Reads the description.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "app"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        build = try reader.field("build").text()
        ua = try reader.field("ua").text()
    }

    /// `{build, ua}`.
    public var body: CBOR {
        ["build": .text(build), "ua": .text(ua)]
    }
}
