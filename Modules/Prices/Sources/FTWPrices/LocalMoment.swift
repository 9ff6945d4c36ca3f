import Foundation

/// An instant read on the box's local clock: the day it falls in and the time of day, which together decide the
/// name prices are asked under.
struct LocalMoment {
    /// The local day, with its midnights.
    var day: PriceDay
    /// The local hour, 0–23.
    var hour: Int
    /// The local minute, 0–59.
    var minute: Int

    init?(nowMs: Int64, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let now = Date(timeIntervalSince1970: Double(nowMs) / 1000)
        let start = calendar.startOfDay(for: now)
        // Adding calendar days keeps local midnight across a DST change; startOfDay covers a zone whose midnight
        // is skipped that day.
        guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: start),
            let after = calendar.date(byAdding: .day, value: 2, to: start)
        else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: now)
        guard let year = parts.year, let month = parts.month, let date = parts.day, let hour = parts.hour,
            let minute = parts.minute
        else { return nil }
        day = PriceDay(
            date: "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(date, 2))",
            timeZoneID: timeZone.identifier,
            startMs: Self.milliseconds(start),
            tomorrowMs: Self.milliseconds(calendar.startOfDay(for: tomorrow)),
            endMs: Self.milliseconds(calendar.startOfDay(for: after))
        )
        self.hour = hour
        self.minute = minute
    }

    /// The local time floored to its quarter hour, `HH:mm`.
    var quarter: String { "\(Self.padded(hour, 2)):\(Self.padded(minute / 15 * 15, 2))" }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
