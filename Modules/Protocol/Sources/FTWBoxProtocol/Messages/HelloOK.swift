/// `hello_ok` (box → app, bulk lane, no id): the box's answer to `hello` (§2.2).
public struct HelloOK: NestedWireBody {
    /// The wire type.
    public static let wireType = "hello_ok"

    /// The negotiated version; 0 means the frozen floor.
    public var proto: Int
    /// `full`, `floor`, `booting` or `readonly`.
    public var mode: String
    /// Which box answered.
    public var box: BoxInfo
    /// The box's clocks.
    public var clock: ClockInfo
    /// What the box supports; absent means hide the feature.
    public var caps: [Capability]
    /// First 16 hex digits of SHA-256 over the sorted caps, each followed by a zero byte.
    public var capsHash: String
    /// The box's mode catalogue, in its order.
    public var modes: [ModeInfo]
    /// What a starting box is busy with; only while booting.
    public var boot: BootProgress?
    /// `app_update` in floor mode.
    public var hint: String?
    /// What this enrolment is.
    public var role: Role
    /// The role expanded into scopes.
    public var scopes: [Scope]
    /// Whether the `sub` folded into the hello was accepted (false also covers an older box).
    public var subscribed: Bool

    /// Makes an answer.
    public init(
        proto: Int,
        mode: String,
        box: BoxInfo,
        clock: ClockInfo,
        caps: [Capability],
        capsHash: String,
        modes: [ModeInfo],
        boot: BootProgress? = nil,
        hint: String? = nil,
        role: Role,
        scopes: [Scope],
        subscribed: Bool = false
    ) {
        self.proto = proto
        self.mode = mode
        self.box = box
        self.clock = clock
        self.caps = caps
        self.capsHash = capsHash
        self.modes = modes
        self.boot = boot
        self.hint = hint
        self.role = role
        self.scopes = scopes
        self.subscribed = subscribed
    }

    /// Reads an answer.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        proto = try reader.field("proto").int()
        mode = try reader.field("mode").text()
        box = try reader.field("box").decode()
        clock = try reader.field("clock").decode()
        caps = try reader.field("caps").texts().map(Capability.init(rawValue:))
        capsHash = try reader.field("capsHash").text()
        modes = try reader.field("modes").list()
        boot = try reader.optional("boot")?.decode()
        hint = try reader.optional("hint")?.text()
        role = try reader.field("role").name()
        scopes = try reader.field("scopes").texts().map(Scope.init(rawValue:))
        subscribed = try reader.optional("subscribed")?.bool() ?? false
    }

    /// The answer in the box's key order; `boot`, `hint` and `subscribed` left out when empty.
    public var body: CBOR {
        var map: CBORMap = [
            "proto": .int(Int64(proto)), "mode": .text(mode), "box": box.body, "clock": clock.body,
            "caps": .names(caps), "capsHash": .text(capsHash), "modes": .list(modes),
            "role": .text(role.rawValue), "scopes": .names(scopes),
        ]
        if let boot { map["boot"] = boot.body }
        if let hint, !hint.isEmpty { map["hint"] = .text(hint) }
        if subscribed { map["subscribed"] = .bool(true) }
        return CBOR.map(map).inDeterministicOrder
    }
}
