import FTWBoxProtocol

/// The one history query a session is serving: its plan, the tiles left, and the etags the app already holds.
struct HistoryRun: Sendable {
    let id: UInt32
    /// Tells this run's scheduled steps from those of a run it superseded.
    let generation: Int
    let plan: HistoryPlan
    let series: [String]
    let have: [String: String]
    var next = 0
}
