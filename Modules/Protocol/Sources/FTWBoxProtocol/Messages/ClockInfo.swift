/// The box's clocks, `hello_ok.clock`: what every age the app shows is measured against.
public struct ClockInfo: NestedWireBody {
    /// Where the wall clock comes from: `ntp`, `rtc` or `none` (the shipping box always says `ntp`).
    public var source: String
    /// Wall-clock ms of the last sync; 0 means never synced (what the shipping box sends).
    public var syncedAtMs: Int64
    /// Box uptime in ms, the clock of every age, lease and deadline.
    public var uptimeMs: Int64

    /// Makes the description.
    public init(source: String = "ntp", syncedAtMs: Int64, uptimeMs: Int64) {
        self.source = source
        self.syncedAtMs = syncedAtMs
        self.uptimeMs = uptimeMs
    }

    /// Reads the description.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "clock"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        source = try reader.field("source").text()
        syncedAtMs = try reader.field("syncedAtMs").milliseconds()
        uptimeMs = try reader.field("uptimeMs").milliseconds()
    }

    /// `{source, syncedAtMs, uptimeMs}`.
    public var body: CBOR {
        ["source": .text(source), "syncedAtMs": .int(syncedAtMs), "uptimeMs": .int(uptimeMs)]
    }
}
