import Foundation

/// Local time in the box's zone, as wall-clock milliseconds: the household, the sun and the price day live by it.
struct LocalZone: Sendable {
    static let dayMs: Int64 = 86_400_000

    private let timeZone: TimeZone

    /// The zone named `identifier`, or UTC for a name the system does not know.
    init(identifier: String) {
        timeZone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0) ?? .current
    }

    /// The zone's offset from UTC at `atMs`.
    func offsetMs(atMs: Int64) -> Int64 {
        let date = Date(timeIntervalSince1970: TimeInterval(atMs) / 1000)
        return Int64(timeZone.secondsFromGMT(for: date)) * 1000
    }

    /// Milliseconds since local midnight.
    func msIntoDay(atMs: Int64) -> Int64 {
        Self.floorMod(atMs + offsetMs(atMs: atMs), Self.dayMs)
    }

    /// The wall-clock start of the local day holding `atMs`.
    func dayStart(atMs: Int64) -> Int64 {
        let local = atMs + offsetMs(atMs: atMs)
        let midnight = local - Self.floorMod(local, Self.dayMs)
        let guess = midnight - offsetMs(atMs: atMs)
        return midnight - offsetMs(atMs: guess)
    }

    /// The wall-clock start of the local day after the one holding `atMs` (23 to 25 hours on).
    func nextDayStart(atMs: Int64) -> Int64 {
        dayStart(atMs: dayStart(atMs: atMs) + Self.dayMs + 3_600_000 * 3)
    }

    /// Days since 1970-01-01 of the local date of `atMs`: the season's clock.
    func dayNumber(atMs: Int64) -> Int64 {
        let local = atMs + offsetMs(atMs: atMs)
        return (local - Self.floorMod(local, Self.dayMs)) / Self.dayMs
    }

    static func floorMod(_ value: Int64, _ divisor: Int64) -> Int64 {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
