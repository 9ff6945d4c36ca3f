/// `event` (box → app, lane 0): something worth surfacing (§2.12); reserved, never sent by the box at HEAD.
public struct BoxEvent: NestedWireBody {
    /// The wire type.
    public static let wireType = "event"

    /// The event's id.
    public var eventId: String
    /// What happened.
    public var kind: String
    /// `info`, `warn` or `alarm`.
    public var severity: String
    /// Box uptime when it happened.
    public var uptimeMs: Int64
    /// Details for the app's wording; left out when empty.
    public var args: CBORMap

    /// Makes an event.
    public init(eventId: String, kind: String, severity: String, uptimeMs: Int64, args: CBORMap = [:]) {
        self.eventId = eventId
        self.kind = kind
        self.severity = severity
        self.uptimeMs = uptimeMs
        self.args = args
    }

    /// Reads an event.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        eventId = try reader.field("eventId").text()
        kind = try reader.field("kind").text()
        severity = try reader.field("severity").text()
        uptimeMs = try reader.field("uptimeMs").milliseconds()
        args = try reader.optional("args")?.map() ?? [:]
    }

    /// `{eventId, kind, severity, uptimeMs, args?}` in the box's key order.
    public var body: CBOR {
        var map: CBORMap = [
            "eventId": .text(eventId), "kind": .text(kind), "severity": .text(severity), "uptimeMs": .int(uptimeMs),
        ]
        if !args.isEmpty { map["args"] = .map(args) }
        return CBOR.map(map).inDeterministicOrder
    }
}
