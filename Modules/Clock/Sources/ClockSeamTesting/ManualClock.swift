public import ClockSeam
import Synchronization

/// A clock that moves only when it is told to: both monotonic time (for sleeping) and wall time (as Unix ms).
///
/// Tests and the simulated scenarios drive it with ``advance(by:)``; a sleeper wakes when the clock reaches its
/// deadline and not before, so nothing in a test waits on real time. One advance moves monotonic and wall time
/// together, which is what keeps "the five minutes turned" and "the chargers are a minute old" consistent.
///
/// ## Concurrency
/// The clock is a `Sendable` class guarding one `State` with a `Mutex`: every operation is synchronous except
/// `sleep`, which parks a continuation that ``advance(to:)`` resumes outside the lock.
public final class ManualClock: Clock, WallClock, Sendable {
    /// A point on the manual clock: the time elapsed since the clock was made.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock's origin.
        public var offset: Duration

        /// Makes an instant at `offset` past the clock's origin.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Self) -> Duration { other.offset - offset }

        /// Orders instants by their offset.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        /// `now` in whole milliseconds since the origin, kept with it: the client reads the wall clock several times
        /// a frame, and working it out of a `Duration` is 128-bit arithmetic each time.
        var nowOffsetMs: Int64 = 0
        var sleepers: [Sleeper] = []
        /// Sleeps cancelled before their continuation was parked: they must not park.
        var cancelledBeforeParking: Set<UInt64> = []
        var nextID: UInt64 = 0
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// The wall-clock time, in Unix ms, at the clock's origin.
    public let originMs: Int64

    /// Makes a manual clock whose wall time starts at `originMs` (Unix ms).
    public init(originMs: Int64) { self.originMs = originMs }

    /// Now on the monotonic axis.
    public var now: Instant { state.withLock { $0.now } }

    /// The manual clock has no resolution limit.
    public var minimumResolution: Duration { .zero }

    /// Now as Unix milliseconds: the origin plus the time advanced so far.
    public var nowMs: Int64 { originMs + state.withLock(\.nowOffsetMs) }

    /// How many sleepers are parked.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline among parked sleepers, if any.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until the clock has been advanced to `deadline`.
    ///
    /// - Throws: `CancellationError` when the sleeping task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelledBeforeParking.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
                resumeSleeperWaiters()
            }
        } onCancel: {
            let parked = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeParking.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            parked?.continuation.resume(throwing: CancellationError())
        }
        // A sleep that finished normally leaves no trace of its id behind.
        _ = state.withLock { $0.cancelledBeforeParking.remove(id) }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards) and wakes every sleeper due by then, earliest first.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            if instant > state.now {
                state.now = instant
                state.nowOffsetMs = instant.offset.wholeMilliseconds
            }
            let ready = state.sleepers.filter { $0.deadline <= state.now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return ready
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until at least `count` sleepers are parked: the rendezvous that lets a test advance only once the
    /// code under test is really asleep.
    public func waitForSleepers(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func resumeSleeperWaiters() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let count = state.sleepers.count
            let due = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
            state.sleeperWaiters.removeAll { $0.count <= count }
            return due
        }
        for continuation in ready { continuation.resume() }
    }
}
