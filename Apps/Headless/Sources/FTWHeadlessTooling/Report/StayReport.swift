public import FTWClient

/// One stay in front (from a launch or a return to the next background or kill): what it cost the box and what the
/// person saw.
public struct StayReport: Sendable, Hashable, Codable {
    /// 1 for the first stay.
    public var number: Int
    /// When the stay began (a launch, or the first phase in front after a background), Unix ms.
    public var beganAtMs: Int64
    /// When it ended, Unix ms; nil if the scenario ended first.
    public var endedAtMs: Int64?
    /// Whether the stay began with a launch (cold) rather than a return from the background.
    public var launched: Bool
    /// Request frames the box received during the stay, by wire type (`api.req`, `plan.get`, …).
    public var requestsByType: [String: Int]
    /// The same frames, in order, as the box described them.
    public var requests: [String]
    /// How many request frames the client's asks log holds for the stay.
    public var asksLogged: Int
    /// Set when the box's list and the asks log disagree: what differs.
    public var mismatch: String?
    /// What the sealed files drew before anything connected (launches only).
    public var drawnBeforeConnect: DrawnFromFiles?
    /// From the stay's beginning to the first content on screen, in ms of the scenario's clock (0 when the sealed
    /// files or the screen already held it).
    public var firstContentMs: Int64?
    /// From the stay's beginning to the first live reading, in ms of the scenario's clock.
    public var liveMs: Int64?
    /// The earliest the relay moves the box to this hour's room, Unix ms, for a stay that began before it did (the
    /// hour's turn, protocol.md §8.3): the stay waited in the room for it rather than redial an empty one.
    public var boxMovesAtMs: Int64?
    /// The latest the box should be in this hour's room, Unix ms, for the same stay: the relay moves it on its next
    /// heartbeat, up to a beat after ``boxMovesAtMs``, and the box rejoins within 5 s.
    public var boxDueByMs: Int64?
    /// Why the stay never went live (the last close's reason, or a box that answered hello and sent nothing); nil for
    /// a stay that went live.
    public var notLiveBecause: String?
    /// How long the stay's stream was live and how long stale (from its timeline's `live` and `stale` steps).
    public var liveTime = LiveTime()
    /// The connection's timeline in the stay: every attempt's dial, handshake, `hello_ok`, the stream going live and
    /// stale, and each close (with the next try it waits for), with its time.
    public var timeline: [ConnectionStep] = []
    /// What a person saw at each `look` step, every value with its moment and basis.
    public var looks: [ShownAges] = []
    /// What the screen showed as the stay ended (the background, a kill, the scenario's end), with every value's
    /// moment and basis; nil when the app was not running.
    public var shownAtEnd: ShownAges?
    /// Every read that failed while the stay was in front: what, why, and whether an older answer is still shown.
    public var failedReads: [FailedRead] = []
    /// Every command a person gave in the stay, and how it settled.
    public var commands: [CommandReport] = []

    /// How long a stay's stream was live and stale, in ms of the scenario's clock.
    public struct LiveTime: Sendable, Hashable, Codable {
        /// Time with beats arriving within the stream's gap rule.
        public var liveMs: Int64 = 0
        /// Time between the gap rule passing without a beat and the next beat (or the connection's end).
        public var staleMs: Int64 = 0

        /// No time yet.
        public init() {}
    }

    /// The total number of request frames the box received.
    public var total: Int { requests.count }
}
