public import FTWBoxProtocol
import FTWClockSeamTesting
public import FTWSessionInterface

/// How a test asks reads inside `SimulatedWorld.withReads(_:)`: each read runs as a caller would, beside the test.
public struct Readers: Sendable {
    struct Asked: Sendable {
        let request: ReadRequest
        let order: ReadOrder
        let onChunk: (@Sendable (HistChunk) -> Void)?
    }

    let continuation: AsyncStream<Asked>.Continuation
    let cancel: StopRequest
    let simulation: Simulation
    /// The results so far.
    public let results: ReadResults

    /// Asks `request` and lets it reach the session.
    public func ask(_ request: ReadRequest, order: ReadOrder, onChunk: (@Sendable (HistChunk) -> Void)? = nil) async {
        continuation.yield(Asked(request: request, order: order, onChunk: onChunk))
        await simulation.settle()
    }

    /// Cancels every read still waiting (their callers go away).
    public func cancelWaiting() async {
        continuation.finish()
        cancel.fire()
        await simulation.settle()
    }
}
