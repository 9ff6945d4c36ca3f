public import FTWSessionInterface

/// One kind of site read through the API passthrough: the path it asks, its place in the read order, how long its
/// answer stands when someone starts looking again, and the model file it is sealed in.
public struct SiteReadKind: Sendable, Hashable {
    /// The model's name: its sealed file (`<model>-<site>`), its ask name and its word in logs.
    public var model: String
    /// The path it reads with `GET`.
    public var path: String
    /// Its place in the read order.
    public var order: ReadOrder
    /// How old its answer may be when someone starts looking again (cache.md §1).
    public var timeToLive: Duration

    /// Makes a kind.
    public init(model: String, path: String, order: ReadOrder, timeToLive: Duration) {
        self.model = model
        self.path = path
        self.order = order
        self.timeToLive = timeToLive
    }

    /// The chargers: `GET /api/loadpoints`, a minute, first in the order.
    public static let chargers = SiteReadKind(
        model: "chargers",
        path: "/api/loadpoints",
        order: .chargers,
        timeToLive: .seconds(60)
    )

    /// The planner's preferences: `GET /api/planner/preferences`, fifteen minutes.
    public static let prefs = SiteReadKind(
        model: "prefs",
        path: "/api/planner/preferences",
        order: .prefs,
        timeToLive: .seconds(15 * 60)
    )

    /// The box's status: `GET /api/status`, a minute.
    public static let status = SiteReadKind(
        model: "status",
        path: "/api/status",
        order: .status,
        timeToLive: .seconds(60)
    )
}
