import FTWSessionInterface
import Synchronization

/// How one read of a contract test settled, as a caller sees it.
enum ContractOutcome: Sendable, Equatable {
    /// Nothing yet.
    case waiting
    /// The box's answer.
    case answered(ReadAnswer)
    /// An error, by its code (the message is each session's own wording).
    case failed(SessionError.Code)
}

/// The outcomes of a test's calls, set from the callers' tasks.
final class ContractOutcomes: Sendable {
    private let values: Mutex<[ContractOutcome]>

    init(count: Int) {
        values = Mutex(Array(repeating: .waiting, count: count))
    }

    var seen: [ContractOutcome] { values.withLock { $0 } }

    func set(_ index: Int, _ outcome: ContractOutcome) {
        values.withLock { $0[index] = outcome }
    }
}
