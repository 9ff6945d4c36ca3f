/// One stretch of the price window's timeline: a priced slot, or time the box has no price for.
///
/// A hole between slots, a window that starts late or ends early is a stretch of `noPrice`, drawn as missing,
/// never filled from a neighbour and never drawn as a cliff down to zero.
public enum PriceSegment: Sendable, Hashable {
    /// A slot with its price.
    case rate(PriceRate)
    /// Time inside the window with no price, from `fromMs` to `toMs` (Unix ms, end exclusive).
    case noPrice(fromMs: Int64, toMs: Int64)
}
