import Foundation

/// Wall-clock instants written as a person in Stockholm reads them, so a test says "13:50" and means it.
enum LocalTime {
    static let stockholm = TimeZone(identifier: "Europe/Stockholm")!

    /// The Unix ms of `yyyy-MM-dd HH:mm` (or `yyyy-MM-dd HH:mm:ss`) in `zone`.
    static func ms(_ text: String, in zone: TimeZone = stockholm) -> Int64 {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: parts[0],
            month: parts[1],
            day: parts[2],
            hour: parts[3],
            minute: parts[4],
            second: parts.count > 5 ? parts[5] : 0
        )
        return Int64(calendar.date(from: components)!.timeIntervalSince1970 * 1000)
    }

    /// `HH:mm` of `ms` in `zone`, for readable expectations.
    static func clock(_ ms: Int64, in zone: TimeZone = stockholm) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(ms) / 1000))
        return String(format: "%02ld:%02ld", parts.hour!, parts.minute!)
    }
}
