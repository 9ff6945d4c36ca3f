/// What the plan view can say, told apart: nothing asked yet is not an empty plan, and an empty plan is not an old
/// one.
public enum PlanState: Sendable, Hashable {
    /// The box has not been asked (and nothing was sealed): draw a placeholder, not "no plan".
    case neverAsked
    /// The box has no plan: it answered with no slots.
    case empty(ShownPlan)
    /// The box has a plan but says it is stale (older than 30 minutes): draw it, marked old.
    case stale(ShownPlan)
    /// A current plan.
    case current(ShownPlan)

    /// The state of a held plan, or ``neverAsked`` when none is held.
    public init(_ plan: ShownPlan?) {
        guard let plan else {
            self = .neverAsked
            return
        }
        if plan.slots.isEmpty {
            self = .empty(plan)
        } else {
            self = plan.stale ? .stale(plan) : .current(plan)
        }
    }
}
