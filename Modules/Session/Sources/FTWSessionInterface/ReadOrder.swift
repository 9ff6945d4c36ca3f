/// The order in which queued reads leave through the box's one API slot: chargers, prefs, plan, status, then the
/// rest — and anything a person asked for before all of them.
///
/// The order is what a person sees first on the home screen; reads asked in the same moment leave in it because
/// an idle slot waits one display frame before it sends.
public enum ReadOrder: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// A person's own request (a pull to refresh, a button): it never waits behind reads.
    case person = 0
    /// The chargers (`GET /api/loadpoints`).
    case chargers
    /// The planner's preferences.
    case prefs
    /// The plan (`plan.get`).
    case plan
    /// The box's status.
    case status
    /// Everything else: prices, history, other API reads.
    case rest

    /// Earlier in the order sorts first.
    public static func < (lhs: ReadOrder, rhs: ReadOrder) -> Bool { lhs.rawValue < rhs.rawValue }
}
