public import FTWCache
public import Foundation

extension PriceWindowModel {
    /// The name the window is wanted under at `nowMs` in `timeZone`, given the window held; nil when the clock
    /// cannot be read in that zone.
    ///
    /// - `prices <day> <zone>, tomorrow pending` before 14:00;
    /// - `prices <day> <zone>, tomorrow late at HH:mm` from 14:00 while tomorrow's rates are late (a new quarter, a
    ///   new name);
    /// - the held window's own name once it is today's and holds tomorrow's rates, so the answer that brought them
    ///   stands for the rest of the day.
    public static func name(nowMs: Int64, timeZone: TimeZone, stored: StoredAnswer<PriceWindow>?) -> AskName? {
        guard let moment = LocalMoment(nowMs: nowMs, timeZone: timeZone) else { return nil }
        if let stored, stored.answer.day == moment.day, stored.answer.tomorrowPublished {
            return stored.name
        }
        if moment.hour < publishHour {
            return AskName("prices \(moment.day), tomorrow pending")
        }
        return AskName("prices \(moment.day), tomorrow late at \(moment.quarter)")
    }
}
