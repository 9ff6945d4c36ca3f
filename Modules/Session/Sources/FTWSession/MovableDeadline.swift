import FTWClockSeam
import Synchronization

/// A deadline the session keeps for the whole of its run and moves rather than re-creates: one task sleeps to it,
/// fires it, and waits for the next arming, so a deadline armed again and again costs a store, never a task.
///
/// The stream's gap rule is such a deadline: armed at `hello_ok` and at the first beat of each live stretch, judged
/// when it runs out, and put off by every beat in between (``putOff(toMs:)``). A new timer task for each arming (its
/// stop signal, the race of two child tasks, the clock's sleeper) cost a live frame half as much again in
/// instructions and eight more allocations. On a ``MovingDeadlineClock`` (the event loop's, the simulated one) the
/// sleeping task is not even woken by a beat: the clock asks how much time is left before it waits, so a steady
/// stream costs the deadline one store a beat and nothing else. On another clock the task wakes when the time it
/// slept to comes and sleeps on to the deadline's new end.
///
/// An arming earlier than the end the task may already sleep to cannot reach a task asleep on the clock, so
/// ``move(toMs:token:)`` refuses it and the owner starts another (the gap rule never moves earlier while it sleeps:
/// each arming counts from a later beat).
///
/// ## Concurrency
/// A `Sendable` class: the arming, the end slept to and the parked task sit behind one `Mutex`; the task is resumed
/// outside it.
final class MovableDeadline: Sendable {
    /// When the deadline is due (wall clock, Unix ms) and the arming it reports.
    private struct Arming {
        var dueMs: Int64
        let token: Int
    }

    private struct State {
        /// The deadline; nil while disarmed.
        var armed: Arming?
        /// The latest end the task's sleep may run to; nil while it does not sleep.
        var sleepingUntilMs: Int64?
        /// When the task's sleep began (wall clock, Unix ms): a moving clock says how long it has slept since.
        var sleptFromMs: Int64 = 0
        /// The task, waiting for an arming.
        var parked: UnsafeContinuation<Void, Never>?
        /// Set once the task has ended or must end: nothing moves it any more.
        var isEnded = false
    }

    /// What the task does next.
    private enum Step {
        case rest(Duration)
        case fire(token: Int)
        case park
        case end
    }

    private let state = Mutex(State())
    /// The clock the deadlines are on.
    private let wallClock: any WallClock

    /// A deadline on `wallClock`, disarmed.
    init(wallClock: any WallClock) {
        self.wallClock = wallClock
    }

    /// Arms the deadline at `dueMs` (wall clock), reporting `token` when it runs out.
    ///
    /// - Returns: False when the task cannot take the arming (it has ended, or it may sleep past `dueMs`): the owner
    ///   ends it and starts another.
    func move(toMs dueMs: Int64, token: Int) -> Bool {
        let parked = state.withLock { state -> UnsafeContinuation<Void, Never>?? in
            if state.isEnded { return .none }
            if let sleepingUntilMs = state.sleepingUntilMs, dueMs < sleepingUntilMs { return .none }
            state.armed = Arming(dueMs: dueMs, token: token)
            state.sleepingUntilMs = state.sleepingUntilMs.map { max($0, dueMs) }
            defer { state.parked = nil }
            return .some(state.parked)
        }
        guard let parked else { return false }
        parked?.resume()
        return true
    }

    /// Puts the armed deadline off to `dueMs` when that is later, keeping its arming: what a beat does. Nothing while
    /// disarmed.
    func putOff(toMs dueMs: Int64) {
        state.withLock { state in
            guard let armed = state.armed, dueMs > armed.dueMs else { return }
            state.armed?.dueMs = dueMs
            state.sleepingUntilMs = state.sleepingUntilMs.map { max($0, dueMs) }
        }
    }

    /// Disarms the deadline; the task stays, and parks once it wakes.
    func disarm() {
        state.withLock { $0.armed = nil }
    }

    /// Runs the deadline until the task is cancelled: sleeps to each arming, on `moving` when the clock can move a
    /// sleeper's deadline and on `clock` when not, and calls `fire` with its token once it has run out. Runs on
    /// `isolation`, the owner's, so `fire` can arm the deadline again before the task looks, and the task sleeps on
    /// without parking.
    func run(
        clock: any Clock<Duration>,
        moving: (any MovingDeadlineClock)?,
        isolation: isolated (any Actor)? = #isolation,
        fire: (Int) -> Void
    ) async {
        let remaining: @Sendable (Int64) -> Int64 = { [self] slept in nanosecondsLeft(afterSleeping: slept) }
        while true {
            switch step(nowMs: wallClock.nowMs) {
            case .rest(let left):
                do {
                    if let moving {
                        try await moving.sleep(whileRemainingNanoseconds: remaining)
                    } else {
                        try await clock.sleep(for: left)
                    }
                } catch {
                    return end()
                }
            case .fire(let token):
                fire(token)
            case .park:
                await park()
            case .end:
                return
            }
        }
    }

    /// Ends the deadline: nothing moves it any more, and a parked task resumes and returns.
    func end() {
        let parked = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.isEnded = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume()
    }

    /// The nanoseconds left until the armed deadline once the task has slept `slept`, as a moving clock asks (it
    /// knows how long, so the wall clock is not read again); none while disarmed, so the task wakes and parks.
    private func nanosecondsLeft(afterSleeping slept: Int64) -> Int64 {
        guard let leftMs = state.withLock({ state in state.armed.map { $0.dueMs - state.sleptFromMs } }) else {
            return 0
        }
        // Clamped to 35 years either way, so a deadline a hostile beat interval put far off cannot overflow.
        return min(max(leftMs, -(1 << 40)), 1 << 40) * 1_000_000 - slept
    }

    /// Decides the task's next step at `nowMs`.
    private func step(nowMs: Int64) -> Step {
        state.withLock { state in
            state.sleepingUntilMs = nil
            if state.isEnded { return .end }
            guard let armed = state.armed else { return .park }
            guard armed.dueMs <= nowMs else {
                state.sleepingUntilMs = armed.dueMs
                state.sleptFromMs = nowMs
                return .rest(.milliseconds(armed.dueMs - nowMs))
            }
            state.armed = nil
            return .fire(token: armed.token)
        }
    }

    /// Waits for the next arming, or for the task's cancellation, which ends the deadline.
    private func park() async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.isEnded || state.armed != nil || Task.isCancelled { return true }
                    state.parked = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            end()
        }
        if Task.isCancelled { end() }
    }
}
