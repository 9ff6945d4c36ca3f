import FTWBus
import Synchronization

/// Where one client stands between its launch and its close, shared by ``HeadlessClient``'s run, its close and its
/// observations: what the launch drew, and whether the client is open, closing or closed.
///
/// ## Concurrency
/// A `Mutex` holds the stage; ``ended`` tells the run and every observation once the client has closed (it
/// publishes once and then finishes, so a subscriber that comes later finds it finished).
final class ClientLifetime: Sendable {
    private enum Stage {
        case open
        /// The first ``HeadlessClient/close()`` is persisting and closing the session; later callers wait here.
        case closing([CheckedContinuation<Void, Never>])
        case closed
    }

    private struct State {
        var stage = Stage.open
        var drawn: DrawnFromFiles?
        /// How many ``HeadlessClient/run()`` calls have not returned yet.
        var runs = 0
        /// Who waits for the last run to return (a forget, before it erases anything).
        var runWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Publishes once the client has closed, then finishes.
    let ended = EventBus<Void>()

    /// What the launch drew from the sealed files; nil before a launch.
    var drawn: DrawnFromFiles? {
        get { state.withLock { $0.drawn } }
        set { state.withLock { $0.drawn = newValue } }
    }

    /// Whether a close has begun (or is done): the client takes no more phases and does not run again.
    var isClosing: Bool {
        state.withLock { if case .open = $0.stage { false } else { true } }
    }

    /// Whether the client has closed.
    var isClosed: Bool {
        state.withLock { if case .closed = $0.stage { true } else { false } }
    }

    /// Claims the close: true for the first caller, who closes; a later caller waits until that close is done and
    /// gets false.
    func claimClose() async -> Bool {
        let claimed = state.withLock { state -> Bool? in
            guard case .open = state.stage else { return nil }
            state.stage = .closing([])
            return true
        }
        if claimed != nil { return true }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                guard case .closing(var waiters) = state.stage else { return true }
                waiters.append(continuation)
                state.stage = .closing(waiters)
                return false
            }
            if resumeNow { continuation.resume() }
        }
        return false
    }

    /// The close is done: its waiters go on, the run returns and every observation ends.
    func closed() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.stage = .closed }
            if case .closing(let waiters) = state.stage { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume() }
        ended.publish(())
        ended.finish()
    }

    /// A run begins: false, and nothing counted, once a close has begun (a closed client does not run again).
    func beginRun() -> Bool {
        state.withLock { state in
            guard case .open = state.stage else { return false }
            state.runs += 1
            return true
        }
    }

    /// A run returned: every service it ran has ended, so nothing it ran writes a file any more.
    func runEnded() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.runs -= 1
            guard state.runs == 0 else { return [] }
            defer { state.runWaiters = [] }
            return state.runWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no run is going on: at once when none is, else when the last one returns.
    func waitUntilNoRun() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                guard state.runs > 0 else { return true }
                state.runWaiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Returns once the client has closed, or at once when the calling task is cancelled.
    func waitUntilClosed() async {
        let endings = ended.subscribe()
        guard !isClosed else { return }
        for await _ in endings { return }
    }
}
