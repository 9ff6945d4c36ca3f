import BoxProtocol
import SessionInterface

extension PlanModel {
    /// Asks the box for its plan and takes the answer.
    ///
    /// - Throws: `SessionError` from the read, or a ``PricesError`` when the answer does not add up.
    static func askPlan(session: any BoxSession, byPerson: Bool) async throws -> ShownPlan {
        let answer = try await session.read(.plan, order: byPerson ? .person : .plan)
        guard case .plan(let plan) = answer else {
            throw PricesError(.unexpectedAnswer, "plan.get answered \(answer)")
        }
        return try ShownPlan(plan: plan)
    }
}
