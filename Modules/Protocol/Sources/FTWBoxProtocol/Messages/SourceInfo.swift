/// One source's freshness, `snap.sources[srcId]` (§3.2): readings point at a source instead of carrying their own
/// time, which keeps a delta small and still says which device went quiet.
public struct SourceInfo: NestedWireBody {
    /// What the source is; the shipping box says `driver`.
    public var kind: String
    /// The driver's name (also the source id).
    public var name: String
    /// Box uptime at the last good reading; 0 if the device never answered.
    public var lastOkMs: Int64
    /// How old a reading may be before it counts as lagging.
    public var staleAfterMs: Int64
    /// Where the source is on the freshness ladder.
    public var state: SourceState

    /// Makes an entry.
    public init(kind: String = "driver", name: String, lastOkMs: Int64, staleAfterMs: Int64, state: SourceState) {
        self.kind = kind
        self.name = name
        self.lastOkMs = lastOkMs
        self.staleAfterMs = staleAfterMs
        self.state = state
    }

    /// Reads an entry.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "sources"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        kind = try reader.field("kind").text()
        name = try reader.field("name").text()
        lastOkMs = try reader.field("lastOkMs").milliseconds()
        staleAfterMs = try reader.field("staleAfterMs").milliseconds()
        state = try reader.field("state").name()
    }

    /// `{kind, name, lastOkMs, staleAfterMs, state}`.
    public var body: CBOR {
        [
            "kind": .text(kind), "name": .text(name), "lastOkMs": .int(lastOkMs),
            "staleAfterMs": .int(staleAfterMs), "state": .text(state.rawValue),
        ]
    }
}
