public import FTWBus
public import FTWSessionInterface
import Synchronization

/// A `CarrierDialer` that opens in-memory carrier pairs: the session gets the app's end, and the box's end arrives
/// on ``accepted`` for whoever plays the box.
///
/// A test can make dials wait (``hold(honouringCancellation:)``) to catch the session between "dial started" and
/// "carrier attached", make the next dials fail (``failNextDials(_:with:)``), and look at every carrier it opened.
///
/// ## Concurrency
/// A `Sendable` class: its counters, the held dials and the carriers opened sit behind one `Mutex`; held dials are
/// resumed outside it.
public final class InMemoryDialer: CarrierDialer {
    private struct HeldDial {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var dials = 0
        var failures = 0
        var failure = SessionError(.dialFailed, "the in-memory dialer was told to fail")
        var holding: Bool?
        var held: [HeldDial] = []
        var carriers: [InMemoryCarrier] = []
        var nextID = 0
    }

    /// The box's end of every carrier opened, in dial order.
    public let accepted: AsyncStream<InMemoryCarrier>
    private let acceptedContinuation: AsyncStream<InMemoryCarrier>.Continuation
    private let state = Mutex(State())
    private let arrival: @Sendable () -> BoxArrival?

    /// Makes a dialer that opens carriers at once.
    ///
    /// - Parameter boxArrival: What the dialer knows of the box's arrival at the hour's turn (a relay dialer's
    ///   rendezvous, say); nothing by default.
    public init(boxArrival: @escaping @Sendable () -> BoxArrival? = { nil }) {
        arrival = boxArrival
        (accepted, acceptedContinuation) = AsyncStream.makeStream()
    }

    /// When the box comes into the room the next dial joins, as the closure given at init says.
    public var boxArrival: BoxArrival? { arrival() }

    /// How many times `dial()` was called.
    public var dialCount: Int { state.withLock(\.dials) }

    /// The app's end of every carrier opened, in order.
    public var carriers: [InMemoryCarrier] { state.withLock(\.carriers) }

    /// How many dials are waiting for ``release()``.
    public var heldCount: Int { state.withLock(\.held.count) }

    /// Makes the following dials wait for ``release()``.
    ///
    /// - Parameter honouringCancellation: true for a dial that gives up when its task is cancelled (a socket
    ///   connect); false for one that finishes anyway and hands back a carrier nobody wants any more.
    public func hold(honouringCancellation: Bool) {
        state.withLock { $0.holding = honouringCancellation }
    }

    /// Lets every held dial go on, and stops holding.
    public func release() {
        let held = state.withLock { state -> [HeldDial] in
            state.holding = nil
            defer { state.held.removeAll() }
            return state.held
        }
        for dial in held { dial.continuation.resume(returning: true) }
    }

    /// Makes the next `count` dials fail with `error` (`.dialFailed` unless told otherwise: a relay whose TLS
    /// identity does not verify is `.relayNotTrusted`, say).
    public func failNextDials(
        _ count: Int,
        with error: SessionError = SessionError(.dialFailed, "the in-memory dialer was told to fail")
    ) {
        state.withLock {
            $0.failures += count
            $0.failure = error
        }
    }

    /// Opens a new in-memory carrier, after the hold and the failures a test asked for.
    ///
    /// - Throws: `SessionError`: the error it was told to fail with, or `.cancelled` when a held dial that honours
    ///   cancellation is cancelled.
    public func dial() async throws(SessionError) -> any Carrier {
        let (failure, holding, id) = state.withLock { state -> (SessionError?, Bool?, Int) in
            state.dials += 1
            state.nextID += 1
            guard state.failures == 0 else {
                state.failures -= 1
                return (state.failure, nil, state.nextID)
            }
            return (nil, state.holding, state.nextID)
        }
        if let failure { throw failure }
        if let honouringCancellation = holding {
            guard await waitForRelease(id: id, honouringCancellation: honouringCancellation) else {
                throw SessionError(.cancelled, "the held dial was cancelled")
            }
        }
        let pair = InMemoryCarrierPair()
        state.withLock { $0.carriers.append(pair.app) }
        acceptedContinuation.yield(pair.box)
        return pair.app
    }

    /// Waits for ``release()``; false when cancelled first (only if the dial honours cancellation).
    private func waitForRelease(id: Int, honouringCancellation: Bool) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock, so a cancellation lands either before (seen here) or after (found there).
                let cancelled = state.withLock { state -> Bool in
                    if honouringCancellation, Task.isCancelled { return true }
                    state.held.append(HeldDial(id: id, continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume(returning: false) }
            }
        } onCancel: {
            guard honouringCancellation else { return }
            let dial = state.withLock { state -> HeldDial? in
                guard let index = state.held.firstIndex(where: { $0.id == id }) else { return nil }
                return state.held.remove(at: index)
            }
            dial?.continuation.resume(returning: false)
        }
    }
}
