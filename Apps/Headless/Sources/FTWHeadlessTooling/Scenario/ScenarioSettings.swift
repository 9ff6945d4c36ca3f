public import FTWCache
import FTWClient
import FTWNoise

/// What a scenario's header sets: the day it runs on, the box's time zone, the asking policy, whether the box
/// carries the planner-preferences route, the relay's heartbeat and the seed that draws what the header leaves open.
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
    /// The seed of what the run draws that the header does not fix: the phase of the relay's heartbeat, as each start
    /// of a relay process sets its own (`seed N`; default 1, so a shipped scenario replays).
    public var seed: UInt64 = 1
    /// The relay's heartbeat in ms, on which it moves an old room at the hour's turn (`relay beat 15s`): production's
    /// 15 s by default; 0 moves each room at its offset exactly.
    public var relayBeatMs = RelaySchedule.beatMs
    /// A local time of day one of the relay's beats falls at, in ms after midnight (`relay beat 15s at 11:02:47.900`),
    /// which fixes its phase; nil for a phase drawn from ``seed``.
    public var relayBeatAtMs: Int64?

    /// The defaults: 2026-12-02 in Europe/Stockholm, the age-keyed policy.
    public init(date: String = "2026-12-02", timeZone: String = "Europe/Stockholm", policy: AskPolicy = .ageKeyed) {
        self.date = date
        self.timeZone = timeZone
        self.policy = policy
    }
}
