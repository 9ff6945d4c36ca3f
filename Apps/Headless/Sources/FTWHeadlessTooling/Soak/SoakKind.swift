import FTWCache
import FTWClient
import FTWDemoBox
import FTWHistory
import FTWPrices
import FTWSite
import Foundation

/// The kinds of request frame the soak tells apart, one per model that asks, each with how cache.md §1 names it.
enum SoakKind: String, CaseIterable, Codable, Sendable {
    case chargers, prefs, status, plan, prices, history

    /// The kind of a request frame, by its wire type and what it asked (`GET /api/loadpoints`, `plan`, …); nil for
    /// a frame no model sends (a `cmd`).
    init?(type: String, detail: String) {
        switch type {
        case "plan.get": self = .plan
        case "price.get": self = .prices
        case "hist.query": self = .history
        case "api.req":
            guard let kind = Self.siteReads.first(where: { detail.hasSuffix(" " + $0.path) }) else { return nil }
            self = kind.kind
        default: return nil
        }
    }

    /// The kind of the demo box's read `read`; nil for hello, which no model asks.
    init?(_ read: BoxRead) {
        switch read {
        case .chargers: self = .chargers
        case .prefs: self = .prefs
        case .plan: self = .plan
        case .status: self = .status
        case .prices: self = .prices
        case .history: self = .history
        case .hello: return nil
        }
    }

    private static let siteReads: [(kind: SoakKind, path: String)] = [
        (.chargers, ChargerList.kind.path), (.prefs, PlannerPrefs.kind.path), (.status, SiteStatus.kind.path),
    ]

    /// When the ask behind a frame was made, if the frame says: a history read (`history 5m … FROM..TO have N`) asks
    /// for the window ending at the moment its load was planned (the split load's older read ends earlier, so the
    /// load's moment is the latest end among its frames).
    func askedAtMs(detail: String) -> Int64? {
        guard self == .history, let range = detail.split(separator: " ").first(where: { $0.contains("..") }) else {
            return nil
        }
        return range.split(separator: ".", omittingEmptySubsequences: true).last.flatMap { Int64($0) }
    }

    /// Request frames one ask may send: a history load sends the tile still filling and then the rest.
    var framesPerAsk: Int { self == .history ? 2 : 1 }

    /// Whether an answer stops standing by its age when someone starts looking again (the site's small reads).
    var hasTimeToLive: Bool { bucketMs == nil }

    /// How often the kind's name turns on its own: the quarter (plan; prices after 14:00 while tomorrow is late,
    /// and the day), the five minutes (history); nil for a name that never changes.
    var bucketMs: Int64? {
        switch self {
        case .plan, .prices: PlanModel.quarterMs
        case .history: 300_000
        case .chargers, .prefs, .status: nil
        }
    }

    /// Whether a view shows this kind's model.
    func isShown(by view: ViewName) -> Bool {
        switch view {
        case .now: [.chargers, .prefs, .plan, .prices].contains(self)
        case .plan: self == .plan
        case .prices: self == .prices
        case .chargers: self == .chargers
        case .status: self == .status
        case .battery, .grid, .pv, .load, .ev, .widget: self == .history
        }
    }

    /// Every name the model could have wanted between `fromMs` and `toMs`, given the name it held before: what an
    /// answer of an ask started in that stretch may be recorded under.
    func names(fromMs: Int64, toMs: Int64, zone: TimeZone, held: AskName?) -> Set<AskName> {
        guard let bucketMs else { return [name(atMs: fromMs, zone: zone)] }
        // Prices keep the name of today's window once it holds tomorrow's rates.
        var names: Set<AskName> = self == .prices ? held.map { [$0] } ?? [] : []
        var time = fromMs
        while time < toMs {
            names.insert(name(atMs: time, zone: zone))
            time += bucketMs
        }
        names.insert(name(atMs: toMs, zone: zone))
        return names
    }

    private func name(atMs: Int64, zone: TimeZone) -> AskName {
        switch self {
        case .plan: PlanModel.name(nowMs: atMs)
        case .prices: PriceWindowModel.name(nowMs: atMs, timeZone: zone, stored: nil) ?? AskName("prices")
        case .history: HistoryModel.Configuration().name(atMs: atMs)
        case .chargers: AskName(ChargerList.kind.model)
        case .prefs: AskName(PlannerPrefs.kind.model)
        case .status: AskName(SiteStatus.kind.model)
        }
    }
}
