public import FTWNoise

/// How the simulated home, box and relay behave: every value has the default a demo wants, and each one is a knob a
/// test turns to reach a rule it wants to see (late prices, a slow relay, a box without planner preferences).
public struct DemoBoxConfiguration: Sendable {
    /// The box's time zone; the sun, the household's habits and the price day all follow its local time.
    public var timeZone = "Europe/Stockholm"
    /// The bidding zone named in every `price` answer.
    public var priceZone = "SE3"
    /// The currency named in every `price` answer.
    public var currency = "SEK"
    /// The local time at which tomorrow's day-ahead rates appear.
    public var pricePublish = (hour: 13, minute: 0)
    /// When set, tomorrow's rates are never published today, so every window reaching into tomorrow is stale.
    public var pricesLate = false
    /// How old a device's last good reading may be before it counts as lagging (the site watchdog, 60 s).
    public var staleAfterMs: Int64 = 60_000
    /// How often the cloud feed repeats itself when nothing changed.
    public var cloudHeartbeat: Duration = .seconds(30)
    /// Box uptime at start: a box that has run a while, so ages and leases read like a real one's.
    public var uptimeAtStartMs: Int64 = 3_600_000
    /// The relay's delay, each direction, on the injected clock.
    public var relayLatency: Duration = .zero
    /// What `hello_ok.box.build` says: the box's software build, which a phone keeps a refused route under.
    public var build = "ftw-demobox"
    /// Whether `GET /api/planner/preferences` exists; false answers `E_UNKNOWN_OP {field: path}` like a real box.
    public var servesPlannerPrefs = true
    /// The relay's join allowance: joins per address in a fixed 60 s window before 4429 `slow down` (protocol.md
    /// §8.3: 30, as the production relay); nil for none, for a benchmark that measures a hundred returns a minute.
    public var joinAllowance: Int? = 30
    /// The relay's epochs and the spread of its turn (protocol.md §8.3, "The hour's turn"): the production relay's
    /// hour and five minutes, unless a wall-clock test shortens them; the phone must be handed the same.
    public var relaySchedule = RelaySchedule.production
    /// The relay's heartbeat, on which it moves old rooms at the hour's turn: production's 15 s, at the phase of a
    /// relay started on a multiple of it unless a run draws its own (`ftw-demobox` at random, a scenario from its
    /// seed); ``RelayBeat/none`` moves each room at its offset exactly. Its period plus the spread must be shorter
    /// than an epoch.
    public var relayBeat = RelayBeat.production
    /// The box's keys; nil makes fresh random ones.
    public var identity: DemoBoxIdentity? = nil
    /// Phones enrolled before the box started (a restart with `--state`), so a known phone reconnects.
    public var enrolledDevices: [EnrolledDevice] = []
    /// How long the box takes to run one API handler; a second `api.req` in that time finds the slot busy.
    public var apiServiceTime: Duration = .milliseconds(40)
    /// How long the box takes to read one history tile; a new query in that time supersedes the running one.
    public var historyTileTime: Duration = .milliseconds(10)

    /// Makes a configuration with every default.
    public init() {}
}
