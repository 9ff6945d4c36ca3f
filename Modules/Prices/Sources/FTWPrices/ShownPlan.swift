public import FTWBoxProtocol

/// The box's plan as the model keeps it, with the box's own flags kept as they came: `stale` and a missing ceiling
/// are facts to show, not reasons to empty the plan.
public struct ShownPlan: Sendable, Hashable {
    /// Bumped whenever the planner makes a new plan; 0 when there is none.
    public var rev: UInt64
    /// Box uptime when the plan was made.
    public var uptimeMs: Int64
    /// The slots, oldest first.
    public var slots: [PlannedSlot]
    /// The box's flag: there is no plan, or it is older than 30 minutes.
    public var stale: Bool
    /// The import ceiling being defended in W; nil when the box defends none (null on the wire).
    public var ceilingW: Int64?

    /// Takes a plan from the box, asked for or pushed.
    ///
    /// - Throws: ``PricesError`` with `.badSlot` or `.slotsOutOfOrder` when the slots do not add up; such a plan is
    ///   never recorded.
    public init(plan: Plan) throws(PricesError) {
        try SlotTiming.check(plan.slots.map { ($0.startMs, $0.durationMs) })
        rev = plan.rev
        uptimeMs = plan.uptimeMs
        slots = plan.slots.map {
            PlannedSlot(
                startMs: $0.startMs,
                durationMs: $0.durationMs,
                batteryW: $0.batteryW,
                gridW: $0.gridW,
                priceMinor: $0.priceMinor,
                reason: $0.reason.rawValue
            )
        }
        stale = plan.stale
        ceilingW = plan.ceilingW
    }
}
