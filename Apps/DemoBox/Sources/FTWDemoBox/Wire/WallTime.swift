/// Wall-clock milliseconds written for a person, in UTC: the request log's windows (`2026-12-01T10:00Z`).
///
/// Written by hand from the civil-from-days arithmetic so the log reads the same on every machine and locale.
enum WallTime {
    private static let dayMs: Int64 = 86_400_000

    /// `yyyy-MM-ddTHH:mmZ`, with seconds (and milliseconds) only when the time has them.
    static func stamp(_ ms: Int64) -> String {
        let days = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
        let inDay = ms - days * dayMs
        let (year, month, day) = civil(daysSinceEpoch: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        let milli = inDay % 1000
        var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute))"
        if second != 0 || milli != 0 { text += ":\(two(second))" }
        if milli != 0 { text += "." + String(String(milli + 1000).dropFirst()) }
        return text + "Z"
    }

    /// Year, month and day of a count of days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func two(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
