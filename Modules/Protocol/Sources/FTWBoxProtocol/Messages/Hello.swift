/// `hello` (app → box, lane 0, no id): the app's opening message (§2.1).
public struct Hello: NestedWireBody {
    /// The wire type.
    public static let wireType = "hello"

    /// The versions the app speaks.
    public var proto: ProtoRange
    /// Who is asking.
    public var app: AppInfo
    /// The user's languages, such as `["sv"]`.
    public var locales: [String]
    /// The first subscription, folded into the hello so the stream starts one round trip sooner.
    public var sub: Sub?

    /// Makes a hello.
    public init(proto: ProtoRange = .current, app: AppInfo, locales: [String], sub: Sub? = nil) {
        self.proto = proto
        self.app = app
        self.locales = locales
        self.sub = sub
    }

    /// Reads a hello.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        proto = try reader.field("proto").decode()
        app = try reader.field("app").decode()
        locales = try reader.field("locales").texts()
        sub = try reader.optional("sub")?.decode()
    }

    /// `{proto, app, locales, sub?}`, in that order.
    public var body: CBOR {
        var map: CBORMap = ["proto": proto.body, "app": app.body, "locales": .texts(locales)]
        if let sub { map["sub"] = sub.body }
        return .map(map)
    }
}
