import FTWBoxProtocol
import FTWSessionInterface

extension PlanModel {
    /// Asks the box for its plan and takes the answer.
    ///
    /// - Throws: `SessionError` from the read, or a ``PricesError`` when the answer does not add up.
    static func askPlan(session: any BoxSession, byPerson: Bool) async throws -> ShownPlan {
        let plan = try await session.read(.plan, order: byPerson ? .person : .plan)
        return try ShownPlan(plan: plan)
    }
}
