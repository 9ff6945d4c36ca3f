public import Foundation

/// One local day of the box and the price window asked on it: from local midnight today to local midnight the day
/// after tomorrow, in the box's time zone.
///
/// The midnights come from a `Calendar` in that zone, never from adding 24 hours, so the spring-forward day is 23
/// hours long and the fall-back day 25, and the window the box is asked for matches the days a person reads.
public struct PriceDay: Sendable, Hashable, CustomStringConvertible {
    /// The local date, `yyyy-MM-dd`.
    public var date: String
    /// The time zone the day is read in (`hello_ok.box.tz`).
    public var timeZoneID: String
    /// Local midnight starting today, Unix ms: the window's start.
    public var startMs: Int64
    /// Local midnight starting tomorrow, Unix ms.
    public var tomorrowMs: Int64
    /// Local midnight after tomorrow: the window's end, Unix ms.
    public var endMs: Int64

    /// The day containing `nowMs` in `timeZone`, or nil when the calendar cannot place it.
    public init?(containing nowMs: Int64, in timeZone: TimeZone) {
        guard let moment = LocalMoment(nowMs: nowMs, timeZone: timeZone) else { return nil }
        self = moment.day
    }

    init(date: String, timeZoneID: String, startMs: Int64, tomorrowMs: Int64, endMs: Int64) {
        self.date = date
        self.timeZoneID = timeZoneID
        self.startMs = startMs
        self.tomorrowMs = tomorrowMs
        self.endMs = endMs
    }

    /// The date and the zone, as in a log line.
    public var description: String { "\(date) \(timeZoneID)" }
}
