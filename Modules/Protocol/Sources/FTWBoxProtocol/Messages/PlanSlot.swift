/// One slot of the box's plan, `plan.slots[]` (§6): what it means to do, and a code for why.
public struct PlanSlot: NestedWireBody {
    /// What a slot lasts when the box does not say (the Swift client's default; the box sends 15 minutes today).
    public static let defaultDurationMs: Int64 = 900_000

    /// Wall-clock start.
    public var startMs: Int64
    /// Slot length; never assume it.
    public var durationMs: Int64
    /// Planned battery power in W; positive is charging.
    public var batteryW: Int64
    /// Planned grid power in W; negative is export.
    public var gridW: Int64
    /// Import price in minor units per kWh; nil (null on the wire) when unknown.
    public var priceMinor: Int64?
    /// Why the slot looks the way it does.
    public var reason: PlanReason

    /// Makes a slot.
    public init(
        startMs: Int64,
        durationMs: Int64 = PlanSlot.defaultDurationMs,
        batteryW: Int64,
        gridW: Int64,
        priceMinor: Int64?,
        reason: PlanReason
    ) {
        self.startMs = startMs
        self.durationMs = durationMs
        self.batteryW = batteryW
        self.gridW = gridW
        self.priceMinor = priceMinor
        self.reason = reason
    }

    /// Reads a slot.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "slots"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        startMs = try reader.field("startMs").milliseconds()
        durationMs = try reader.optional("durationMs")?.milliseconds() ?? Self.defaultDurationMs
        batteryW = try reader.field("batteryW").int64()
        gridW = try reader.field("gridW").int64()
        priceMinor = try reader.optional("priceMinor")?.int64()
        reason = try reader.field("reason").name()
    }

    /// `{startMs, durationMs, batteryW, gridW, priceMinor, reason}`, with null for an unknown price.
    public var body: CBOR {
        [
            "startMs": .int(startMs), "durationMs": .int(durationMs), "batteryW": .int(batteryW),
            "gridW": .int(gridW), "priceMinor": .nullable(priceMinor), "reason": .text(reason.rawValue),
        ]
    }
}
