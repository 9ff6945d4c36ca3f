import Synchronization

/// A one-shot "stop" for one piece of the session's structured work (a timer, a connection): the session's task
/// group cannot cancel a single child, so each child races its work against its own signal.
///
/// ## Concurrency
/// A `Sendable` class: whether it fired and who waits for it sit behind one `Mutex`; waiters resume outside it.
final class StopSignal: Sendable {
    private struct State {
        var stopped = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Fires the signal: the work racing it is cancelled. Firing twice does nothing more.
    func stop() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopped = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the signal has fired.
    var isStopped: Bool { state.withLock(\.stopped) }

    /// Runs `work` until it finishes or the signal fires, whichever comes first; on a stop the work's task is
    /// cancelled and this returns once the work has wound down.
    func race(_ work: @escaping @Sendable () async -> Void) async {
        _ = await race { () async -> Bool in
            await work()
            return true
        }
    }

    /// Runs `work` until it finishes or the signal fires; on a stop the work's task is cancelled and waited for.
    ///
    /// - Returns: What the work returned, even when the signal fired too (so nothing it made is lost unclosed); nil
    ///   when the work had not finished when the stop came.
    func race<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask { await work() }
            group.addTask {
                await self.wait()
                return nil
            }
            var result: Value?
            if let first = await group.next() { result = first }
            group.cancelAll()
            while let next = await group.next() { result = result ?? next }
            return result
        }
    }

    /// Returns once the signal fires or the waiting task is cancelled.
    func wait() async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.stopped || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
