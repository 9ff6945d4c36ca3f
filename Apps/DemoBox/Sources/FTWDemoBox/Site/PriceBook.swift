import FTWBoxProtocol
import Foundation

/// The box's price table: quarter-hour day-ahead rates in integer minor units, a pure function of the slot's start,
/// with the publication rule deciding which days exist yet.
///
/// Today (and every day since installation) is always there; tomorrow's rates appear at the publish time, local,
/// unless the prices are late.
struct PriceBook: Sendable {
    static let slotMs: Int64 = 900_000
    static let windowClampMs: Int64 = 8 * LocalZone.dayMs
    /// The grid tariff added to spot, in minor units per kWh.
    static let gridTariffMinor = 45.0
    static let vatPercent = 25.0

    let zone: LocalZone
    let zoneName: String
    let currency: String
    /// When tomorrow's rates appear, in ms after local midnight.
    var publishMsIntoDay: Int64
    /// The start of the first local day the table holds.
    let firstDayStartMs: Int64

    /// The raw market price of the slot starting at `startMs`: cheap nights, a morning and an evening peak, a dip
    /// under the midday sun, dearer in winter, and a small deterministic wobble.
    func spotMinor(startMs: Int64) -> Int64 {
        let hours = Double(zone.msIntoDay(atMs: startMs)) / 3_600_000
        let day = Double(zone.dayNumber(atMs: startMs))
        let slot = Double(startMs / Self.slotMs)
        let season = 30 * cos(2 * Double.pi * (day + 10) / 365.2422)
        let shape = 60 * bump(hours, 8, 1.2) + 90 * bump(hours, 18.5, 1.5) - 25 * bump(hours, 13, 2)
        let wobble = 12 * sin(slot * 0.7) * cos(day * 1.3)
        return Int64((45 + season + shape + wobble).rounded())
    }

    /// What the household pays for `spotMinor`: `(spot + grid tariff) × (1 + VAT)`, rounded once.
    func totalMinor(spotMinor: Int64) -> Int64 {
        Int64(((Double(spotMinor) + Self.gridTariffMinor) * (1 + Self.vatPercent / 100)).rounded())
    }

    /// Whether tomorrow's rates are out at `nowMs`.
    func isTomorrowPublished(nowMs: Int64, late: Bool) -> Bool {
        !late && zone.msIntoDay(atMs: nowMs) >= publishMsIntoDay
    }

    /// The end of the last day the table holds at `nowMs`: tomorrow's end once published, else today's.
    func storedUntilMs(nowMs: Int64, late: Bool) -> Int64 {
        let tomorrow = zone.nextDayStart(atMs: nowMs)
        return isTomorrowPublished(nowMs: nowMs, late: late) ? zone.nextDayStart(atMs: tomorrow) : tomorrow
    }

    /// The stored slot starting at `startMs`, if the table holds it at `nowMs`.
    func slot(startMs: Int64, nowMs: Int64, late: Bool) -> PriceSlot? {
        guard startMs >= firstDayStartMs, startMs < storedUntilMs(nowMs: nowMs, late: late) else { return nil }
        let spot = spotMinor(startMs: startMs)
        return PriceSlot(
            startMs: startMs,
            durationMs: Self.slotMs,
            spotMinor: spot,
            totalMinor: totalMinor(spotMinor: spot)
        )
    }

    /// The answer to `price.get`: every stored slot overlapping `[fromMs, toMs)`, the window clamped to 8 days for
    /// the read, and `stale` judged against the window asked for.
    func answer(fromMs: Int64, toMs: Int64, nowMs: Int64, late: Bool) -> Price {
        let readTo = min(toMs, fromMs + Self.windowClampMs)
        let first = fromMs - LocalZone.floorMod(fromMs, Self.slotMs)
        let slots = stride(from: first, to: readTo, by: Int(Self.slotMs)).compactMap {
            slot(startMs: $0, nowMs: nowMs, late: late)
        }
        return Price(
            zone: zoneName,
            currency: currency,
            slots: slots,
            stale: Self.isStale(slots, fromMs: fromMs, toMs: toMs)
        )
    }

    /// The four stale rules: nothing, a late start, an early end, or a hole.
    static func isStale(_ slots: [PriceSlot], fromMs: Int64, toMs: Int64) -> Bool {
        guard let first = slots.first, let last = slots.last else { return true }
        if first.startMs > fromMs || last.startMs + last.durationMs < toMs { return true }
        return zip(slots, slots.dropFirst()).contains { $0.startMs + $0.durationMs != $1.startMs }
    }

    private func bump(_ hours: Double, _ center: Double, _ width: Double) -> Double {
        let distance = (hours - center) / width
        return exp(-distance * distance / 2)
    }
}
