import Cache
import Foundation
import Synchronization

/// The price window's last name and the quarter hour it was worked out in, so the stream's beat (a live frame a
/// second while a view is open) compares integers instead of reading the clock in the box's zone every time.
///
/// The name depends only on the local day, whether it is past the publish hour, the local quarter hour and the
/// window held. Every zone's offset and its changes fall on whole quarter hours today, so the local quarter turns
/// exactly when the UTC quarter does: within one UTC quarter, for the same zone and the same window held, the name
/// cannot change. A zone whose offset is not a whole number of quarters is named afresh every time.
final class PriceNameMemo: Sendable {
    private struct Entry {
        var quarter: Int64
        var zone: TimeZone
        /// What the name reads of the window held: its name, its day and whether it holds tomorrow.
        var held: Held?
        var name: AskName?
    }

    private struct Held: Equatable {
        var name: AskName
        var day: PriceDay
        var tomorrowPublished: Bool

        init?(_ stored: StoredAnswer<PriceWindow>?) {
            guard let stored else { return nil }
            name = stored.name
            day = stored.answer.day
            tomorrowPublished = stored.answer.tomorrowPublished
        }
    }

    private static let quarterMs: Int64 = 900_000
    private let last = Mutex<Entry?>(nil)

    /// The name at `nowMs` in `timeZone` given the window held, from the memo while its quarter holds.
    func name(nowMs: Int64, timeZone: TimeZone, stored: StoredAnswer<PriceWindow>?) -> AskName? {
        let quarter = nowMs >= 0 ? nowMs / Self.quarterMs : (nowMs + 1) / Self.quarterMs - 1
        let held = Held(stored)
        if let entry = last.withLock({ $0 }), entry.quarter == quarter, entry.zone == timeZone, entry.held == held {
            return entry.name
        }
        let name = PriceWindowModel.name(nowMs: nowMs, timeZone: timeZone, stored: stored)
        let offsetSeconds = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(nowMs) / 1000))
        let entry = Entry(quarter: quarter, zone: timeZone, held: held, name: name)
        last.withLock { $0 = offsetSeconds % 900 == 0 ? entry : nil }
        return name
    }
}
