import Synchronization

#if canImport(CEpoll)
import CEpoll
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
/// ## Concurrency
/// The heap and the timerfd belong to the loop's thread; `sleep` hops there to add a deadline and a cancellation
/// hops there to remove one. The clock itself is a `Sendable` class with immutable stored properties.
public final class LoopClock<Base: Clock<Duration>>: Clock, @unchecked Sendable {
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
}

/// The pending deadlines of one ``LoopClock``, earliest first, and the timerfd armed for the earliest.
///
/// Deadlines are times since the clock's reference instant, read by `elapsed`.
///
/// ## Concurrency
/// `pending`, `cancelledEarly` and the timerfd are touched on the loop's thread only; `nextID` is atomic.
final class DeadlineTimer: LoopHandler, @unchecked Sendable {
    // @unchecked: everything mutable but `nextID` (atomic) is confined to `loop`'s thread.
    // TODO: as for LoopClock.

    private struct Sleeper {
        let deadline: Duration
        let id: UInt64
        let continuation: UnsafeContinuation<Void, any Error>
    }

    /// Now, as time since the clock's reference instant.
    private let elapsed: @Sendable () -> Duration
    private let loop: EventLoop
    private let descriptor: Int32
    private let nextID = Atomic<UInt64>(0)
    private var pending: [Sleeper] = []
    /// Ids cancelled before their sleeper reached the loop.
    private var cancelledEarly: Set<UInt64> = []
    private var isWatched = false

    init?(loop: EventLoop, elapsed: @escaping @Sendable () -> Duration) {
        #if canImport(CEpoll)
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

    func sleep(until deadline: Duration) async throws {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let sleeper = Sleeper(deadline: deadline, id: id, continuation: continuation)
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
        let index = pending.firstIndex { sleeper.deadline < $0.deadline } ?? pending.count
        pending.insert(sleeper, at: index)
        if index == 0 { arm() }
    }

    private func cancel(_ id: UInt64) {
        guard let index = pending.firstIndex(where: { $0.id == id }) else {
            cancelledEarly.insert(id)
            return
        }
        let sleeper = pending.remove(at: index)
        sleeper.continuation.resume(throwing: CancellationError())
        if index == 0 { arm() }
    }

    func readable() {
        #if canImport(CEpoll)
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
        #if canImport(CEpoll)
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
