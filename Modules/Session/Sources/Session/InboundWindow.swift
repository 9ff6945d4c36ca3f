import Synchronization

/// How many carrier events may wait for the session's loop at once: a connection's runner takes a place before it
/// hands an event over and the loop gives it back once the event is handled, so a box that sends faster than the
/// session handles waits in TCP (and the WebSocket's own bounded inbox), not in the session's memory.
///
/// ## Concurrency
/// A `Sendable` class: the places taken, the peak and the runners waiting sit behind one `Mutex`; waiters resume
/// outside it. A waiting runner whose task is cancelled (its connection was stopped) resumes at once, placeless.
final class InboundWindow: Sendable {
    private struct State {
        var taken = 0
        var peak = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextID = 0
    }

    /// The most events waiting for the loop at once.
    let capacity: Int
    private let state = Mutex(State())

    /// Makes a window of `capacity` places (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The most places ever taken at once.
    var peak: Int { state.withLock { $0.peak } }

    /// Takes a place, waiting while every place is taken.
    ///
    /// A free place is taken without suspending: the cancellation handler and the continuation a wait needs cost
    /// more than the rest of a live frame's hand-over, and the window is almost never full.
    ///
    /// - Returns: False when the task was cancelled (no place was taken).
    func take() async -> Bool {
        if Task.isCancelled { return false }
        if state.withLock({ Self.takeFree(&$0, capacity: capacity) }) { return true }
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if Self.takeFree(&state, capacity: capacity) { return true }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: false)
        }
    }

    /// Takes a place if one is free.
    private static func takeFree(_ state: inout State, capacity: Int) -> Bool {
        guard state.taken < capacity else { return false }
        state.taken += 1
        state.peak = max(state.peak, state.taken)
        return true
    }

    /// Gives a place back, handing it straight to the runner that waited longest.
    func give() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let id = state.waiters.keys.min(), let waiter = state.waiters.removeValue(forKey: id) else {
                state.taken = max(0, state.taken - 1)
                return nil
            }
            return waiter
        }
        next?.resume(returning: true)
    }
}
