import FTWSeal
import FTWSealInterface
import Synchronization

/// A key provider whose first ``key()`` fetches the key and then waits at a gate until ``release()``, so a test can
/// run an erase-all while a key fetch is in flight and the fetched key goes stale.
final class GatedKeyProvider: KeyProvider {
    private enum Gate {
        case armed
        case waiting(CheckedContinuation<Void, Never>)
        case open
    }

    private let inner = InMemoryKeyProvider()
    private let gate = Mutex(Gate.armed)
    private let asks: AsyncStream<Void>
    private let askContinuation: AsyncStream<Void>.Continuation

    init() {
        (asks, askContinuation) = AsyncStream<Void>.makeStream()
    }

    func key() async throws(SealError) -> [UInt8] {
        let key = try await inner.key()
        await withCheckedContinuation { continuation in
            let waits = gate.withLock { gate -> Bool in
                guard case .armed = gate else { return false }
                gate = .waiting(continuation)
                return true
            }
            if waits { askContinuation.yield() } else { continuation.resume() }
        }
        return key
    }

    func erase() async throws(SealError) {
        try await inner.erase()
    }

    /// Returns once the first fetch is waiting at the gate.
    func firstFetchIsWaiting() async {
        for await _ in asks { return }
    }

    /// Lets the waiting fetch go on with the key it fetched.
    func release() {
        let waiting = gate.withLock { gate -> CheckedContinuation<Void, Never>? in
            defer { gate = .open }
            guard case .waiting(let continuation) = gate else { return nil }
            return continuation
        }
        waiting?.resume()
    }
}
