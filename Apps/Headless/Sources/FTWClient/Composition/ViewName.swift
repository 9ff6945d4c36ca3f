/// The views a person opens in the app, as scenarios name them.
///
/// Each view wants some of the models: `now` shows the chargers, the planner's preferences, the plan and the
/// prices; a node (`battery`, `grid`, `pv`, `load`, `ev`) shows its live trace and its 48-hour history; the grid
/// `widget` reads the history window too.
public enum ViewName: String, Sendable, Hashable, CaseIterable {
    /// The home screen.
    case now
    /// The battery's node.
    case battery
    /// The grid's node.
    case grid
    /// The solar panels' node.
    case pv
    /// The household's node.
    case load
    /// The car charger's node.
    case ev
    /// The plan.
    case plan
    /// The prices.
    case prices
    /// The chargers' sheet.
    case chargers
    /// The box's status.
    case status
    /// The grid widget on the home screen of the phone.
    case widget

    /// Whether the view is a node's, with a live trace and history.
    public var isNode: Bool {
        switch self {
        case .battery, .grid, .pv, .load, .ev: true
        default: false
        }
    }
}
