/// The import ceiling the plan defends, told apart from not knowing: a box that defends none says null, which is not
/// a ceiling of zero and not an unanswered question.
public enum PlanCeiling: Sendable, Hashable {
    /// No plan is held, so the ceiling is not known.
    case unknown
    /// The box defends no ceiling (`ceilingW: null`).
    case none
    /// The box defends this many watts of import.
    case watts(Int64)

    /// The ceiling of a held plan, or ``unknown`` when none is held.
    public init(_ plan: ShownPlan?) {
        guard let plan else {
            self = .unknown
            return
        }
        self = plan.ceilingW.map(PlanCeiling.watts) ?? .none
    }
}
