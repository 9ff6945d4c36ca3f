import FTWBoxProtocol
import FTWSessionInterface

/// One read a contract test asks, as a caller would.
struct ContractCall: Sendable {
    var request: ReadRequest
    var order: ReadOrder
    /// Whether the test's cancel signal takes the caller away.
    var cancellable = false
    /// Told of each history tile as it lands.
    var onChunk: (@Sendable (HistChunk) -> Void)?
}
