/// One slot of the plan as the model keeps it: what the box means to do and a stable code for why.
public struct PlannedSlot: Sendable, Hashable {
    /// Wall-clock start, Unix ms.
    public var startMs: Int64
    /// How long the slot lasts, in ms; never assumed.
    public var durationMs: Int64
    /// Planned battery power in W; positive is charging.
    public var batteryW: Int64
    /// Planned grid power in W; negative is export.
    public var gridW: Int64
    /// The import price in minor units per kWh; nil when the box has none (null on the wire), never zero.
    public var priceMinor: Int64?
    /// The reason code (`cheap_import`, `peak_shaving`, …), which the app turns into words.
    public var reason: String

    /// Makes a slot.
    public init(startMs: Int64, durationMs: Int64, batteryW: Int64, gridW: Int64, priceMinor: Int64?, reason: String) {
        self.startMs = startMs
        self.durationMs = durationMs
        self.batteryW = batteryW
        self.gridW = gridW
        self.priceMinor = priceMinor
        self.reason = reason
    }
}
