public import FTWClockSeam
import Synchronization

#if canImport(CFTWEpoll)
import CFTWEpoll
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A live clock whose sleeps are woken by an ``EventLoop``'s timer rather than by libdispatch's: it reads time from
/// `base` (the app's `ContinuousClock`) and keeps every pending deadline in one heap behind one timerfd the loop
/// watches.
///
/// Handed to the modules as their `Clock`, it lets a client whose tasks run on the loop sleep, time out and back off
/// without touching libdispatch at all. On Linux that matters: the first job or timer that reaches libdispatch's
/// global queues starts its worker pool, whose monitor then wakes the process every second for the rest of its life,
/// and at the descriptor limit traps when it cannot open `/proc/<tid>/stat`. A task woken by this clock resumes on
/// its own executor (the loop, for a client's services), so a deadline costs the loop one wake-up and no hand-off.
///
/// Where the loop has no timerfd (other platforms, or a process out of descriptors when the clock is made), sleeps
/// fall back to `base`'s own.
///
/// It is a ``/FTWClockSeam/MovingDeadlineClock``: a moving sleeper (``sleep(whileRemaining:)``) is not on the timer
/// but on the loop's wait, which the loop bounds by the sleeper's time left, asked before each wait. So a deadline
/// that a stream's beats keep putting off costs the loop one read of the time before it waits, and no wake-up and
/// no system call while the beats come (on the timer it would have to be set again at each beat, or fire at each
/// stale deadline).
///
/// ## Concurrency
/// The heap and the timerfd belong to the loop's thread; `sleep` hops there to add a deadline and a cancellation
/// hops there to remove one. The clock itself is a `Sendable` class with immutable stored properties.
public final class LoopClock<Base: Clock<Duration>>: MovingDeadlineClock, @unchecked Sendable {
    // @unchecked: `timer` is immutable and touched on the loop's thread only (see `DeadlineHeap`).
    // TODO: drop once the heap can be a loop-confined non-Sendable value the compiler checks.

    public typealias Instant = Base.Instant

    /// The clock time is read from.
    public let base: Base
    /// The loop whose timer wakes the sleepers.
    public let loop: EventLoop
    /// Where the timer's deadlines count from: they are `Duration`s since this instant, so the timer is concrete
    /// code (a timer generic over the clock ran unspecialised, looking up type metadata on every sleep).
    private let reference: Instant
    private let timer: DeadlineTimer?

    /// A clock reading `base` and sleeping on `loop`'s timer.
    public init(base: Base, loop: EventLoop) {
        self.base = base
        self.loop = loop
        let reference = base.now
        self.reference = reference
        timer = DeadlineTimer(loop: loop) { reference.duration(to: base.now) }
    }

    /// Now, on `base`.
    public var now: Instant { base.now }

    /// `base`'s resolution.
    public var minimumResolution: Duration { base.minimumResolution }

    /// Suspends until `deadline` on `base`, woken by the loop's timer.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        guard let timer else { return try await base.sleep(until: deadline, tolerance: tolerance) }
        try Task.checkCancellation()
        guard base.now < deadline else { return }
        try await timer.sleep(until: reference.duration(to: deadline))
    }

    /// Suspends until `remaining` says no time is left, asked by the loop before each of its waits and when the
    /// deadline it last said comes.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(whileRemaining remaining: @escaping @Sendable (_ slept: Duration) -> Duration) async throws {
        try Task.checkCancellation()
        let start = reference.duration(to: base.now)
        var left = remaining(.zero)
        guard let timer else {
            // No timerfd, so no loop to bound: sleep on `base` to each deadline said, asking again at each.
            while left > .zero {
                try await base.sleep(for: left)
                left = remaining(reference.duration(to: base.now) - start)
            }
            return
        }
        guard left > .zero else { return }
        try await timer.sleep(until: start + left, start: start, remaining: remaining)
    }
}

/// The pending deadlines of one ``LoopClock``, earliest first: the fixed ones behind one timerfd the loop watches,
/// armed for the earliest; the moving ones (``LoopClock/sleep(whileRemaining:)``) bounding the loop's wait instead,
/// asked how much time they have left before each wait, and woken once they say none.
///
/// Deadlines are times since the clock's reference instant, read by `elapsed`. A moving sleeper's deadline is the one
/// it last said; its own can only have moved later, so the loop asks it again before waiting on it rather than waking
/// at a deadline it has since put off. The loop reads `elapsed` before a wait only while a moving sleeper is pending.
///
/// ## Concurrency
/// `pending`, `moving`, `cancelledEarly` and the timerfd are touched on the loop's thread only; `nextID` is atomic.
final class DeadlineTimer: LoopHandler, @unchecked Sendable {
    // @unchecked: everything mutable but `nextID` (atomic) is confined to `loop`'s thread.
    // TODO: as for LoopClock.

    private struct Sleeper {
        var deadline: Duration
        let id: UInt64
        let continuation: UnsafeContinuation<Void, any Error>
        /// When a moving sleeper began to sleep.
        var start: Duration = .zero
        /// A moving sleeper's time left given the time slept; nil for a fixed deadline.
        var remaining: (@Sendable (Duration) -> Duration)?
    }

    /// Now, as time since the clock's reference instant.
    private let elapsed: @Sendable () -> Duration
    private let loop: EventLoop
    private let descriptor: Int32
    private let nextID = Atomic<UInt64>(0)
    private var pending: [Sleeper] = []
    // Unchecked exclusivity, as the loop's own queues: the loop's thread alone touches them, and a dynamic access
    // check at each of the loop's looks before it waits cost more than the look.
    @exclusivity(unchecked) private var moving: [Sleeper] = []
    /// Ids cancelled before their sleeper reached the loop.
    private var cancelledEarly: Set<UInt64> = []
    private var isWatched = false
    /// Whether the loop has this timer in its list of moving deadlines.
    @exclusivity(unchecked) private var isScheduled = false

    init?(loop: EventLoop, elapsed: @escaping @Sendable () -> Duration) {
        #if canImport(CFTWEpoll)
        let descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.elapsed = elapsed
        self.loop = loop
        #else
        return nil
        #endif
    }

    deinit { close(descriptor) }

    /// Sleeps until `deadline`, or, with `remaining`, until it says no time is left (`deadline` its first answer,
    /// `start` when the sleep began).
    func sleep(
        until deadline: Duration,
        start: Duration = .zero,
        remaining: (@Sendable (Duration) -> Duration)? = nil
    ) async throws {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let sleeper = Sleeper(
                    deadline: deadline,
                    id: id,
                    continuation: continuation,
                    start: start,
                    remaining: remaining
                )
                onLoop { self.add(sleeper) }
            }
        } onCancel: {
            onLoop { self.cancel(id) }
        }
    }

    private func onLoop(_ work: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { work() } else { loop.execute(work) }
    }

    private func add(_ sleeper: Sleeper) {
        if cancelledEarly.remove(sleeper.id) != nil {
            return sleeper.continuation.resume(throwing: CancellationError())
        }
        guard sleeper.remaining == nil else {
            Self.insert(sleeper, into: &moving)
            if !isScheduled {
                isScheduled = true
                loop.schedule(self)
            }
            return
        }
        if Self.insert(sleeper, into: &pending) == 0 { arm() }
    }

    /// Puts `sleeper` in `sleepers` in deadline order; returns where.
    @discardableResult
    private static func insert(_ sleeper: Sleeper, into sleepers: inout [Sleeper]) -> Int {
        let index = sleepers.firstIndex { sleeper.deadline < $0.deadline } ?? sleepers.count
        sleepers.insert(sleeper, at: index)
        return index
    }

    private func cancel(_ id: UInt64) {
        if let index = moving.firstIndex(where: { $0.id == id }) {
            return moving.remove(at: index).continuation.resume(throwing: CancellationError())
        }
        guard let index = pending.firstIndex(where: { $0.id == id }) else {
            cancelledEarly.insert(id)
            return
        }
        let sleeper = pending.remove(at: index)
        sleeper.continuation.resume(throwing: CancellationError())
        if index == 0 { arm() }
    }

    /// The time until the earliest moving deadline, once the sleepers ahead have said how much time they have left;
    /// nil when none is pending, after which the loop lets go of the timer. The loop asks before each wait.
    func timeUntilNextMovingDeadline() -> Duration? {
        guard !moving.isEmpty else {
            isScheduled = false
            return nil
        }
        let now = elapsed()
        while let remaining = moving[0].remaining {
            let deadline = now + max(.zero, remaining(now - moving[0].start))
            guard deadline > moving[0].deadline else { break }
            moving[0].deadline = deadline
            guard moving.count > 1, moving[1].deadline < deadline else { break }
            Self.insert(moving.removeFirst(), into: &moving)
        }
        return max(.zero, moving[0].deadline - now)
    }

    /// Wakes the moving sleepers whose deadline has come and that say no time is left (one that has some left waits
    /// on for its new deadline); returns whether any is left, after which the loop lets go of the timer.
    func wakeMovingDue() -> Bool {
        guard !moving.isEmpty else {
            isScheduled = false
            return false
        }
        let now = elapsed()
        while !moving.isEmpty, moving[0].deadline <= now {
            var sleeper = moving.removeFirst()
            let left = sleeper.remaining?(now - sleeper.start) ?? .zero
            if left > .zero {
                sleeper.deadline = now + left
                Self.insert(sleeper, into: &moving)
            } else {
                sleeper.continuation.resume()
            }
        }
        isScheduled = !moving.isEmpty
        return isScheduled
    }

    func readable() {
        #if canImport(CFTWEpoll)
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, 8)
        #endif
        let now = elapsed()
        let due = pending.prefix { $0.deadline <= now }
        pending.removeFirst(due.count)
        arm()
        for sleeper in due { sleeper.continuation.resume() }
    }

    func writable() {}

    /// Arms the timerfd for the earliest deadline, or disarms it and stops watching when none is left (an idle
    /// clock costs the loop nothing).
    private func arm() {
        #if canImport(CFTWEpoll)
        guard let earliest = pending.first else {
            var off = itimerspec()
            _ = timerfd_settime(descriptor, 0, &off, nil)
            if isWatched { loop.watch(descriptor, self, reading: false, writing: false) }
            isWatched = false
            return
        }
        var spec = itimerspec()
        spec.it_value = Self.timeValue(earliest.deadline - elapsed())
        _ = timerfd_settime(descriptor, 0, &spec, nil)
        if !isWatched { isWatched = loop.watch(descriptor, self, reading: true, writing: false) }
        #endif
    }

    /// `remaining` as a timerfd's relative value: at least a nanosecond (zero would disarm it), at most a year.
    private static func timeValue(_ remaining: Duration) -> timespec {
        let (seconds, attoseconds) = remaining.components
        guard seconds > 0 || (seconds == 0 && attoseconds >= 1_000_000_000) else {
            return timespec(tv_sec: 0, tv_nsec: 1)
        }
        let clamped = min(seconds, 31_536_000)
        return timespec(tv_sec: Int(clamped), tv_nsec: Int(attoseconds / 1_000_000_000))
    }
}
