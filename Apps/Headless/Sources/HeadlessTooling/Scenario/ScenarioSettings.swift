public import Cache

/// What a scenario's header sets: the day it runs on, the box's time zone and the asking policy.
public struct ScenarioSettings: Sendable, Hashable {
    /// The calendar day, `YYYY-MM-DD`, in the box's time zone.
    public var date: String
    /// The box's time zone identifier.
    public var timeZone: String
    /// The asking policy the client runs with.
    public var policy: AskPolicy

    /// The defaults: 2026-12-02 in Europe/Stockholm, the age-keyed policy.
    public init(date: String = "2026-12-02", timeZone: String = "Europe/Stockholm", policy: AskPolicy = .ageKeyed) {
        self.date = date
        self.timeZone = timeZone
        self.policy = policy
    }
}
