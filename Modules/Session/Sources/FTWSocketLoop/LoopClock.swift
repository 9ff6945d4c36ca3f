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
/// It is a ``/FTWClockSeam/MovingDeadlineClock``: a moving sleeper (``sleep(whileRemainingNanoseconds:)``) is not
/// on the timer but on the loop's wait, which the loop bounds by the sleeper's time left, asked before each wait. So a deadline
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

    /// A clock reading `base` and sleeping on `loop`'s timer. Its moving sleepers read the time as a `Duration`
    /// since the clock was made; a base that reads whole nanoseconds gets the other initialiser, which skips that
    /// arithmetic.
    public convenience init(base: Base, loop: EventLoop) {
        let reference = base.now
        self.init(base: base, loop: loop, reference: reference) { reference.duration(to: base.now).wholeNanoseconds }
    }

    /// A clock reading `base` from `reference` on, whose moving sleepers read the time by `nanoseconds`.
    fileprivate init(base: Base, loop: EventLoop, reference: Instant, nanoseconds: @escaping @Sendable () -> Int64) {
        self.base = base
        self.loop = loop
        self.reference = reference
        timer = DeadlineTimer(loop: loop, elapsed: { reference.duration(to: base.now) }, nanoseconds: nanoseconds)
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
    public func sleep(
        whileRemainingNanoseconds remaining: @escaping @Sendable (_ sleptNanoseconds: Int64) -> Int64
    ) async throws {
        try Task.checkCancellation()
        guard let timer else {
            // No timerfd, so no loop to bound: sleep on `base` to each deadline said, asking again at each.
            let start = base.now
            var left = remaining(0)
            while left > 0 {
                try await base.sleep(for: .nanoseconds(left))
                left = remaining(start.duration(to: base.now).wholeNanoseconds)
            }
            return
        }
        try await timer.sleep(whileRemaining: remaining)
    }
}

extension LoopClock where Base: NanosecondReadingClock {
    /// A clock reading `base` and sleeping on `loop`'s timer, whose moving sleepers read `base`'s whole nanoseconds
    /// as integers. The compiler picks it for such a base: asking at run time (`base as? any
    /// NanosecondReadingClock`) scans every protocol conformance of the program, 0.24 M instructions of a launch.
    public convenience init(base: Base, loop: EventLoop) {
        self.init(base: base, loop: loop, reference: base.now) { base.nowNanoseconds }
    }
}

/// The pending deadlines of one ``LoopClock``, earliest first: the fixed ones behind one timerfd the loop watches,
/// armed for the earliest; the moving ones (``LoopClock/sleep(whileRemainingNanoseconds:)``) bounding the loop's
/// wait instead, asked how much time they have left before each wait, and woken once they say none.
///
/// Fixed deadlines are times since the clock's reference instant, read by `elapsed`. Moving ones are whole nanoseconds
/// of the base clock read as integers (`nanoseconds`), so the ask before each wait is integer arithmetic. A moving sleeper's deadline
/// is the one it last said; its own can only have moved later, so the loop asks it again before waiting on it rather
/// than waking at a deadline it has since put off. The loop reads the time before a wait only while a moving sleeper
/// is pending.
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
    }

    /// A sleeper whose deadline moves (``LoopClock/sleep(whileRemainingNanoseconds:)``), in whole nanoseconds
    /// (`nanoseconds`): the loop asks it before every wait, and integers keep that ask a few instructions.
    private struct MovingSleeper {
        /// The deadline it last gave, which its own can only have moved past.
        var deadlineNs: Int64
        let id: UInt64
        let continuation: UnsafeContinuation<Void, any Error>
        /// When it began to sleep.
        let startNs: Int64
        /// Its time left given the time slept.
        let remaining: @Sendable (Int64) -> Int64
    }

    /// The longest a moving sleeper is taken at its word: past it, the loop asks again (a day, the kernel's wait's
    /// own bound), so a far deadline cannot overflow the arithmetic.
    private static let longestWaitNs: Int64 = 86_400 * 1_000_000_000

    /// Now, as time since the clock's reference instant.
    private let elapsed: @Sendable () -> Duration
    /// Now in whole nanoseconds on the base clock's axis (``/FTWClockSeam/NanosecondReadingClock``), for the moving
    /// sleepers.
    private let nanoseconds: @Sendable () -> Int64
    private let loop: EventLoop
    private let descriptor: Int32
    private let nextID = Atomic<UInt64>(0)
    private var pending: [Sleeper] = []
    // Unchecked exclusivity, as the loop's own queues: the loop's thread alone touches them, and a dynamic access
    // check at each of the loop's looks before it waits cost more than the look.
    @exclusivity(unchecked) private var moving: [MovingSleeper] = []
    /// Ids cancelled before their sleeper reached the loop.
    private var cancelledEarly: Set<UInt64> = []
    private var isWatched = false
    /// Whether the loop has this timer in its list of moving deadlines.
    @exclusivity(unchecked) private var isScheduled = false

    init?(
        loop: EventLoop,
        elapsed: @escaping @Sendable () -> Duration,
        nanoseconds: @escaping @Sendable () -> Int64
    ) {
        #if canImport(CFTWEpoll)
        let descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.elapsed = elapsed
        self.nanoseconds = nanoseconds
        self.loop = loop
        #else
        return nil
        #endif
    }

    deinit { close(descriptor) }

    /// Sleeps until `deadline`.
    func sleep(until deadline: Duration) async throws {
        try await suspend { id, continuation in
            .fixed(Sleeper(deadline: deadline, id: id, continuation: continuation))
        }
    }

    /// Sleeps until `remaining` says no time is left.
    func sleep(whileRemaining remaining: @escaping @Sendable (Int64) -> Int64) async throws {
        let start = nanoseconds()
        let left = Self.bounded(remaining(0))
        guard left > 0 else { return }
        try await suspend { id, continuation in
            .moving(
                MovingSleeper(
                    deadlineNs: start + left,
                    id: id,
                    continuation: continuation,
                    startNs: start,
                    remaining: remaining
                )
            )
        }
    }

    private enum Entry: Sendable {
        case fixed(Sleeper)
        case moving(MovingSleeper)
    }

    /// Parks the calling task as the sleeper `make` builds, added on the loop, and takes it off on cancellation.
    private func suspend(
        _ make: (UInt64, UnsafeContinuation<Void, any Error>) -> Entry
    ) async throws {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let entry = make(id, continuation)
                onLoop { self.add(entry) }
            }
        } onCancel: {
            onLoop { self.cancel(id) }
        }
    }

    private func onLoop(_ work: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { work() } else { loop.execute(work) }
    }

    private func add(_ entry: Entry) {
        switch entry {
        case .fixed(let sleeper):
            if cancelledEarly.remove(sleeper.id) != nil {
                return sleeper.continuation.resume(throwing: CancellationError())
            }
            if Self.insert(sleeper, into: &pending, by: { $0.deadline < $1.deadline }) == 0 { arm() }
        case .moving(let sleeper):
            if cancelledEarly.remove(sleeper.id) != nil {
                return sleeper.continuation.resume(throwing: CancellationError())
            }
            Self.insert(sleeper, into: &moving, by: { $0.deadlineNs < $1.deadlineNs })
            if !isScheduled {
                isScheduled = true
                loop.schedule(self)
            }
        }
    }

    /// Puts `sleeper` after those due no later, and returns where.
    @discardableResult
    private static func insert<Entry>(
        _ sleeper: Entry,
        into sleepers: inout [Entry],
        by isEarlier: (Entry, Entry) -> Bool
    ) -> Int {
        let index = sleepers.firstIndex { isEarlier(sleeper, $0) } ?? sleepers.count
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

    /// How long the loop may wait before the earliest moving sleeper's deadline, in nanoseconds, each asked again
    /// first; nil when none is left, and the timer leaves the loop's list.
    func nanosecondsUntilNextMovingDeadline() -> Int64? {
        guard !moving.isEmpty else {
            isScheduled = false
            return nil
        }
        let now = nanoseconds()
        while true {
            let deadline = now + max(0, Self.bounded(moving[0].remaining(now - moving[0].startNs)))
            guard deadline > moving[0].deadlineNs else { break }
            moving[0].deadlineNs = deadline
            guard moving.count > 1, moving[1].deadlineNs < deadline else { break }
            Self.insert(moving.removeFirst(), into: &moving, by: { $0.deadlineNs < $1.deadlineNs })
        }
        return max(0, moving[0].deadlineNs - now)
    }

    /// Wakes the moving sleepers whose time is up, and puts the others off to their new deadlines; returns whether
    /// any is left.
    func wakeMovingDue() -> Bool {
        guard !moving.isEmpty else {
            isScheduled = false
            return false
        }
        let now = nanoseconds()
        while !moving.isEmpty, moving[0].deadlineNs <= now {
            var sleeper = moving.removeFirst()
            let left = Self.bounded(sleeper.remaining(now - sleeper.startNs))
            if left > 0 {
                sleeper.deadlineNs = now + left
                Self.insert(sleeper, into: &moving, by: { $0.deadlineNs < $1.deadlineNs })
            } else {
                sleeper.continuation.resume()
            }
        }
        isScheduled = !moving.isEmpty
        return isScheduled
    }

    /// `nanoseconds` no longer than ``longestWaitNs``.
    private static func bounded(_ nanoseconds: Int64) -> Int64 { min(nanoseconds, longestWaitNs) }

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
