public import FTWClockSeam
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
public final class ManualClock: MovingDeadlineClock, WallClock, Sendable {
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
        /// When it wakes; for a moving sleeper, the deadline it last gave, which its own can only have moved past.
        var deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
        /// When it began to sleep.
        let start: Instant
        /// A moving sleeper's time left given the time slept (``MovingDeadlineClock``); nil for a fixed deadline.
        let remaining: (@Sendable (Duration) -> Duration)?
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

        /// The earliest deadline of a parked sleeper, read in place: a simulation asks at every advance.
        var earliestDeadline: Instant? {
            guard !sleepers.isEmpty else { return nil }
            var earliest = sleepers[0].deadline
            for index in sleepers.indices.dropFirst() where sleepers[index].deadline < earliest {
                earliest = sleepers[index].deadline
            }
            return earliest
        }

        /// The first moving sleeper at or after `index` whose last deadline is at or before `limit`, with now, and
        /// `index` moved past it.
        mutating func movingSleeper(from index: inout Int, notAfter limit: Instant?) -> MovingSleeper? {
            while index < sleepers.count {
                defer { index += 1 }
                if let remaining = sleepers[index].remaining, limit.map({ sleepers[index].deadline <= $0 }) ?? true {
                    return MovingSleeper(
                        id: sleepers[index].id,
                        remaining: remaining,
                        start: sleepers[index].start,
                        now: now
                    )
                }
            }
            return nil
        }
    }

    /// The sleepers an advance wakes, earliest first, and the clock's now after it (a struct, not a tuple: a tuple
    /// through the lock's generic closure is copied by the runtime's value witnesses at every advance).
    private struct DueSleepers {
        let sleepers: [Sleeper]
        let now: Instant
    }

    /// A moving sleeper to ask outside the lock.
    private struct MovingSleeper {
        let id: UInt64
        let remaining: @Sendable (Duration) -> Duration
        let start: Instant
        let now: Instant
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

    /// The earliest deadline among parked sleepers, if any, a moving sleeper's as it says now. Builds no array: a
    /// simulation reads it at every advance, and a client that keeps a deadline pending while it streams (the
    /// stream's gap rule) would otherwise pay an allocation a simulated frame for the clock's sake.
    public var nextDeadline: Instant? { nextDeadline(notAfter: nil) }

    /// The earliest deadline among parked sleepers if it is at or before `limit` (any, for nil), a moving sleeper's
    /// as it says now: a moving sleeper whose last deadline lies past `limit` is not asked, so a simulation that
    /// advances a second at a time asks a deadline that beats keep putting off only when that second could reach it.
    public func nextDeadline(notAfter limit: Instant?) -> Instant? {
        // A deadline only moves later, so when even the earliest last said lies past `limit` nothing can be due.
        guard let earliest = state.withLock({ $0.earliestDeadline }) else { return nil }
        if let limit, earliest > limit { return nil }
        refreshMovingDeadlines(notAfter: limit)
        guard let refreshed = state.withLock({ $0.earliestDeadline }) else { return nil }
        guard let limit else { return refreshed }
        return refreshed <= limit ? refreshed : nil
    }

    /// Suspends until the clock has been advanced to `deadline`.
    ///
    /// - Throws: `CancellationError` when the sleeping task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await park(until: deadline, start: now, remaining: nil)
    }

    /// Suspends until `remaining` says no time is left, asked each time the clock would wake the sleeper and
    /// whenever ``nextDeadline`` is read: a deadline moved later since keeps the sleeper parked, untouched.
    ///
    /// - Throws: `CancellationError` when the sleeping task is cancelled first.
    public func sleep(whileRemaining remaining: @escaping @Sendable (_ slept: Duration) -> Duration) async throws {
        let start = now
        try await park(until: start.advanced(by: max(.zero, remaining(.zero))), start: start, remaining: remaining)
    }

    /// ``sleep(whileRemaining:)`` in nanoseconds, as `MovingDeadlineClock` asks: a simulation's sleeper is asked
    /// in the same units as a live loop's.
    ///
    /// - Throws: `CancellationError` when the sleeping task is cancelled first.
    public func sleep(
        whileRemainingNanoseconds remaining: @escaping @Sendable (_ sleptNanoseconds: Int64) -> Int64
    ) async throws {
        try await sleep(whileRemaining: { slept in .nanoseconds(remaining(slept.wholeNanoseconds)) })
    }

    private func park(
        until deadline: Instant,
        start: Instant,
        remaining: (@Sendable (Duration) -> Duration)?
    ) async throws {
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
                    state.sleepers.append(
                        Sleeper(
                            id: id,
                            deadline: deadline,
                            continuation: continuation,
                            start: start,
                            remaining: remaining
                        )
                    )
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
        let due = state.withLock { state -> DueSleepers in
            if instant > state.now {
                state.now = instant
                state.nowOffsetMs = instant.offset.wholeMilliseconds
            }
            guard let earliest = state.earliestDeadline, earliest <= state.now else {
                return DueSleepers(sleepers: [], now: state.now)
            }
            let ready = state.sleepers.filter { $0.deadline <= state.now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return DueSleepers(sleepers: ready, now: state.now)
        }
        for sleeper in due.sleepers where !parksAgain(sleeper, at: due.now) { sleeper.continuation.resume() }
    }

    /// A moving sleeper whose deadline came but whose time has moved on parks again at its new deadline, unwoken (or
    /// ends, if it was cancelled meanwhile); returns whether it did either. Asked outside the lock: `remaining` may
    /// read this clock.
    private func parksAgain(_ sleeper: Sleeper, at now: Instant) -> Bool {
        guard let remaining = sleeper.remaining else { return false }
        let left = remaining(sleeper.start.duration(to: now))
        guard left > .zero else { return false }
        let cancelled = state.withLock { state -> Bool in
            if state.cancelledBeforeParking.remove(sleeper.id) != nil { return true }
            var parked = sleeper
            parked.deadline = now.advanced(by: left)
            state.sleepers.append(parked)
            return false
        }
        if cancelled { sleeper.continuation.resume(throwing: CancellationError()) }
        return true
    }

    /// Asks every moving sleeper how much time it has left, outside the lock, and keeps the later deadline, so the
    /// next deadline reported is when one really wakes. One sleeper at a time, so nothing is copied.
    private func refreshMovingDeadlines(notAfter limit: Instant?) {
        var index = 0
        while let moving = state.withLock({ state in state.movingSleeper(from: &index, notAfter: limit) }) {
            let deadline = moving.now.advanced(by: max(.zero, moving.remaining(moving.start.duration(to: moving.now))))
            state.withLock { state in
                guard let at = state.sleepers.firstIndex(where: { $0.id == moving.id }) else { return }
                state.sleepers[at].deadline = max(state.sleepers[at].deadline, deadline)
            }
        }
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
