import FTWBoxProtocol

/// The planner's current plan and when it was made: `rev` moves each time it is regenerated.
struct PlanRecord: Sendable {
    /// Plans older than this by wall clock are stale (`mpc.MaxPlanAge`).
    static let maxAgeMs: Int64 = 1_800_000

    var rev: UInt64 = 0
    var generatedAtMs: Int64 = 0
    var uptimeMs: Int64 = 0
    var slots: [PlanSlot] = []

    /// The plan as sent at `nowMs`.
    func message(nowMs: Int64, ceilingW: Int64?) -> Plan {
        Plan(
            rev: rev,
            uptimeMs: uptimeMs,
            slots: slots,
            stale: slots.isEmpty || nowMs - generatedAtMs > Self.maxAgeMs,
            ceilingW: ceilingW
        )
    }
}
