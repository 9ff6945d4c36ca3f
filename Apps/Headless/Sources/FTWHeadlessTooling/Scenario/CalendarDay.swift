public import Foundation

/// A day on the calendar, checked to exist: a scenario's `date`.
///
/// A time of day on it is the local wall time in a zone, resolved against the zone's rules rather than added to
/// midnight as a duration: on a daylight-saving day `at 14:00:00` is 14:00 on the clock face, not an hour off.
public struct CalendarDay: Sendable, Hashable, CustomStringConvertible {
    /// The first day a scenario may be set on; the zone rules and the box's clock are known from here.
    public static let earliest = CalendarDay(checkedYear: 2000, month: 1, day: 1)
    /// The last day a scenario may be set on.
    public static let latest = CalendarDay(checkedYear: 2099, month: 12, day: 31)

    /// The year, 2000 to 2099.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to its last day.
    public let day: Int

    /// Reads `YYYY-MM-DD`; nil when it is not written so, names no real day (`2026-02-30`, `0000-00-00`) or lies
    /// outside ``earliest`` … ``latest``.
    public init?(_ text: String) {
        guard let match = text.wholeMatch(of: /([0-9]{4})-([0-9]{2})-([0-9]{2})/),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
            (Self.earliest.year...Self.latest.year).contains(year), (1...12).contains(month),
            (1...Self.length(ofMonth: month, in: year)).contains(day)
        else { return nil }
        self.init(checkedYear: year, month: month, day: day)
    }

    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Why `text` is refused as a day, with the days a scenario may be set on.
    static func refusal(of text: String) -> String {
        "'\(text)' is not a calendar day from \(earliest) to \(latest)"
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func padded(_ number: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(number).count)) + String(number)
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// The instant (Unix ms) at which clocks in `zone` read `timeOfDayMs` after midnight on this day.
    ///
    /// A time the clocks skip (02:30 on the spring day in Europe/Stockholm) is the first instant after the gap
    /// (03:00, which the clocks read at the jump); a time they show twice (02:30 on the autumn day) is its first
    /// occurrence, before the clocks go back.
    public func instantMs(atTimeOfDay timeOfDayMs: Int64, in zone: TimeZone) -> Int64 {
        let wallMs = daysSinceEpoch * 86_400_000 + timeOfDayMs
        let offsetBefore = Self.offsetMs(zone, at: wallMs - 86_400_000)
        let offsetAfter = Self.offsetMs(zone, at: wallMs + 86_400_000)
        let readings = [wallMs - offsetBefore, wallMs - offsetAfter].filter {
            Self.offsetMs(zone, at: $0) == wallMs - $0
        }
        if let first = readings.min() { return first }
        // In a gap the clocks jump from before to after somewhere in (wallMs - offsetAfter, wallMs - offsetBefore].
        var low = wallMs - offsetAfter
        var high = wallMs - offsetBefore
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if Self.offsetMs(zone, at: middle) == offsetAfter { high = middle } else { low = middle }
        }
        return high
    }

    /// Days from 1970-01-01 to this day, on the proleptic Gregorian calendar.
    private var daysSinceEpoch: Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func offsetMs(_ zone: TimeZone, at instantMs: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instantMs) / 1000))) * 1000
    }

    private static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
