import FTWClockSeamTesting
import FTWSessionTestSupport
import Testing

/// Which session a contract test runs against: the same test bodies, two sessions.
enum ContractSession: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `LiveSession` over the in-memory dialer, a scripted box on the far end.
    case live
    /// `ScriptedSession`, the double the models' tests use.
    case scripted

    var testDescription: String { rawValue }

    /// Builds the session's world on a simulation and runs `body` on its stage.
    func run(_ body: @escaping @Sendable (any ContractStage) async throws -> Void) async throws {
        switch self {
        case .live:
            try await SessionWorld.run { world in try await body(LiveContractStage(world: world)) }
        case .scripted:
            try await Simulation(originMs: SessionWorld.originMs).run { simulation in
                let stage = ScriptedContractStage(simulation: simulation)
                await stage.scripted.setAnswer { .success(ContractAnswers.answer(to: $0)) }
                try await body(stage)
            }
        }
    }
}
