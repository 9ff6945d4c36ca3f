public import Cache

/// What a scenario's header sets: the day it runs on, the box's time zone, the asking policy, and whether the box
/// carries the planner-preferences route.
public struct ScenarioSettings: Sendable, Hashable {
    /// The calendar day, `YYYY-MM-DD`, in the box's time zone.
    public var date: String
    /// The box's time zone identifier.
    public var timeZone: String
    /// The asking policy the client runs with.
    public var policy: AskPolicy
    /// Whether the demo box carries `GET /api/planner/preferences` (`prefs on`, the default, as the seed's box does);
    /// `prefs off` plays a box built from the public route table, which answers `E_UNKNOWN_OP` (protocol.md §7.4).
    public var plannerPrefs = true

    /// The defaults: 2026-12-02 in Europe/Stockholm, the age-keyed policy.
    public init(date: String = "2026-12-02", timeZone: String = "Europe/Stockholm", policy: AskPolicy = .ageKeyed) {
        self.date = date
        self.timeZone = timeZone
        self.policy = policy
    }
}
