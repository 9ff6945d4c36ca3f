/// A dispatch mode's key (registry `modes`), as `site.mode.set` names it and `hello_ok.modes` lists it.
///
/// The box's catalogue is the authority on what exists; these are the keys the registry gives wording for, so a
/// mode the app has never heard of still appears, under the box's own label.
public struct ModeKey: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `planner_passive_arbitrage`, a primary (forecast-driven) mode.
    public static let plannerPassiveArbitrage: ModeKey = "planner_passive_arbitrage"
    /// `planner_arbitrage`, a primary (forecast-driven) mode.
    public static let plannerArbitrage: ModeKey = "planner_arbitrage"
    /// `idle`, an advanced (manual fallback) mode.
    public static let idle: ModeKey = "idle"
    /// `self_consumption`, an advanced mode.
    public static let selfConsumption: ModeKey = "self_consumption"
    /// `peak_shaving`, an advanced mode.
    public static let peakShaving: ModeKey = "peak_shaving"
    /// `charge`, an advanced mode.
    public static let charge: ModeKey = "charge"
    /// `planner_self`, hidden: valid over the API, never a button.
    public static let plannerSelf: ModeKey = "planner_self"
    /// `planner_cheap`, hidden.
    public static let plannerCheap: ModeKey = "planner_cheap"
    /// `priority`, hidden.
    public static let priority: ModeKey = "priority"
    /// `weighted`, hidden.
    public static let weighted: ModeKey = "weighted"

    /// Every mode in the registry, in its order.
    public static let all: [ModeKey] = [
        .plannerPassiveArbitrage, .plannerArbitrage, .idle, .selfConsumption, .peakShaving, .charge, .plannerSelf,
        .plannerCheap, .priority, .weighted,
    ]

    /// Where the registry places the mode: `primary`, `advanced` or `hidden`; nil for a mode it does not list.
    public var registryTier: String? {
        switch self {
        case .plannerPassiveArbitrage, .plannerArbitrage: "primary"
        case .idle, .selfConsumption, .peakShaving, .charge: "advanced"
        case .plannerSelf, .plannerCheap, .priority, .weighted: "hidden"
        default: nil
        }
    }
}
