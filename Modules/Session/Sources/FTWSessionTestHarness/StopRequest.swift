import Synchronization

/// A one-shot signal a test fires to cancel the reads still waiting.
public final class StopRequest: Sendable {
    /// Makes a signal that has not fired.
    public init() {}

    private let state = Mutex<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Fires the signal: the waiter, if any, resumes now, and a later wait returns at once.
    public func fire() {
        let waiter = state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once fired, or when the waiting task is cancelled.
    public func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let fired = state.withLock { state in
                    if !state.fired, !Task.isCancelled { state.waiter = continuation }
                    return state.fired || Task.isCancelled
                }
                if fired { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}
