/// One price slot, `price.slots[]` (§5): integer minor units per kWh, because money in a float is a rounding
/// argument.
public struct PriceSlot: NestedWireBody {
    /// What a slot lasts when the box does not say (the Swift client's default for older, hourly data).
    public static let defaultDurationMs: Int64 = 3_600_000

    /// Wall-clock start.
    public var startMs: Int64
    /// Slot length, typically 15 or 60 minutes; never assume it.
    public var durationMs: Int64
    /// The raw market price.
    public var spotMinor: Int64
    /// What the household pays, grid tariff and VAT included.
    public var totalMinor: Int64

    /// Makes a slot.
    public init(startMs: Int64, durationMs: Int64 = PriceSlot.defaultDurationMs, spotMinor: Int64, totalMinor: Int64) {
        self.startMs = startMs
        self.durationMs = durationMs
        self.spotMinor = spotMinor
        self.totalMinor = totalMinor
    }

    /// Reads a slot.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "slots"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        startMs = try reader.field("startMs").milliseconds()
        durationMs = try reader.optional("durationMs")?.milliseconds() ?? Self.defaultDurationMs
        spotMinor = try reader.field("spotMinor").int64()
        totalMinor = try reader.field("totalMinor").int64()
    }

    /// `{startMs, durationMs, spotMinor, totalMinor}`.
    public var body: CBOR {
        [
            "startMs": .int(startMs), "durationMs": .int(durationMs), "spotMinor": .int(spotMinor),
            "totalMinor": .int(totalMinor),
        ]
    }
}
