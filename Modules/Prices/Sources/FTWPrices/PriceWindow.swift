public import FTWBoxProtocol

/// The price window for today and tomorrow in the box's time zone: what the prices view draws.
///
/// It keeps the slots as the box sent them (integer minor units per kWh, each with its own length), the zone and
/// the currency, and the day it was asked for, so a window from yesterday is never taken for today's.
public struct PriceWindow: Sendable, Hashable {
    /// The local day the window was asked on, with its midnights.
    public var day: PriceDay
    /// The bidding zone, such as `SE3`.
    public var zone: String
    /// The ISO currency of every price, such as `SEK`.
    public var currency: String
    /// The slots, oldest first, without overlap; the first may start before the window (the slot running at its
    /// start).
    public var rates: [PriceRate]
    /// The box's own flag: some of the window is not covered (tomorrow not published, a hole, a cut tail).
    public var stale: Bool

    /// Takes the box's answer for `day`'s window.
    ///
    /// - Throws: ``PricesError`` with `.badSlot` or `.slotsOutOfOrder` when the slots do not add up; such an answer
    ///   is never recorded.
    public init(answer: Price, day: PriceDay) throws(PricesError) {
        try SlotTiming.check(answer.slots.map { ($0.startMs, $0.durationMs) })
        self.day = day
        zone = answer.zone
        currency = answer.currency
        rates = answer.slots.map {
            PriceRate(
                startMs: $0.startMs,
                durationMs: $0.durationMs,
                spotMinor: $0.spotMinor,
                totalMinor: $0.totalMinor
            )
        }
        stale = answer.stale
    }

    /// Whether tomorrow's rates are here: the slots reach the window's end.
    ///
    /// Judged from the slots, not from ``stale``: a hole in today also makes the box say stale, and asking again
    /// does not mend a hole, while tomorrow's rates do arrive once published.
    public var tomorrowPublished: Bool {
        guard let last = rates.last else { return false }
        return last.endMs >= day.endMs
    }

    /// The window from start to end as priced slots and stretches with no price, in order.
    public var timeline: [PriceSegment] {
        var segments: [PriceSegment] = []
        // Each rate, and a stretch with no price before it or at the end where one is missing: rarely more.
        segments.reserveCapacity(rates.count + 2)
        var cursor = day.startMs
        for rate in rates {
            if rate.startMs > cursor { segments.append(.noPrice(fromMs: cursor, toMs: rate.startMs)) }
            segments.append(.rate(rate))
            cursor = max(cursor, rate.endMs)
        }
        if cursor < day.endMs { segments.append(.noPrice(fromMs: cursor, toMs: day.endMs)) }
        return segments
    }

    /// Whether some time between two slots has no price ("some hours are missing their price").
    public var hasHole: Bool {
        zip(rates, rates.dropFirst()).contains { $0.endMs < $1.startMs }
    }
}
