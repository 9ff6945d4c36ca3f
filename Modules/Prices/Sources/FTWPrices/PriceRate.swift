/// One price slot as the model keeps it: integer minor units per kWh (öre, cents), because money in a float is a
/// rounding argument, and the slot's own length, because slots are 15 or 60 minutes and never assumed.
public struct PriceRate: Sendable, Hashable {
    /// Wall-clock start, Unix ms.
    public var startMs: Int64
    /// How long the slot lasts, in ms.
    public var durationMs: Int64
    /// The raw market price, minor units per kWh.
    public var spotMinor: Int64
    /// What the household pays, grid tariff and VAT included, minor units per kWh.
    public var totalMinor: Int64

    /// Makes a rate.
    public init(startMs: Int64, durationMs: Int64, spotMinor: Int64, totalMinor: Int64) {
        self.startMs = startMs
        self.durationMs = durationMs
        self.spotMinor = spotMinor
        self.totalMinor = totalMinor
    }

    /// Where the slot ends, Unix ms; a slot whose end would not fit ends at the last millisecond there is.
    public var endMs: Int64 { SlotTiming.end(startMs: startMs, durationMs: durationMs) ?? .max }
}
