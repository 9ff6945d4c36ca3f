import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that waits on many non-blocking sockets at once and runs Swift jobs between their events, as a
/// swift-nio event loop does: the executor a client's session, bus and models share, so a frame goes from the socket's
/// read to the last model as ordinary calls on one thread.
///
/// It is a `TaskExecutor`: code run under `withTaskExecutorPreference(loop)` (and its child tasks, and the default
/// actors they call) runs on the loop's thread, so a socket read that resumes such a task hands it nothing across
/// threads. It is also a `SerialExecutor`, for an actor that wants its `unownedExecutor` to be the loop.
///
/// Sockets register a handler (package API) that the loop calls on its thread when the kernel says the socket can be
/// read or written (epoll on Linux, `poll` elsewhere); the loop never blocks on a socket and never keeps a thread per
/// connection, so a thousand idle sockets cost it nothing but their descriptors. While nothing is ready and nothing
/// is queued it sleeps in the kernel: an idle loop wakes no one.
///
/// ## Concurrency
/// Jobs and closures from other threads go through one `Mutex`-guarded inbox and wake the loop through the poller's
/// wake-up descriptor (once per batch); work queued from the loop's own thread goes straight onto its run queue,
/// without a lock or a wake-up. Everything else (the run queue, the handlers) belongs to the loop's thread.
public final class EventLoop: @unchecked Sendable {
    // @unchecked: `ready`, `handlers` and `poller`'s waiting are touched on the loop's thread only (checked in debug
    // builds); what other threads touch is the `inbox` Mutex, the `hasRemoteWork` flag and immutable values.
    // TODO: make the loop-confined part a non-Sendable value the thread owns once `~Copyable` closures make that easy.

    private struct Inbox {
        var work: [LoopWork] = []
        /// A wake-up was written and the loop has not taken the inbox since, so another write would be wasted.
        var isWakeRequested = false
        var isStopping = false
        var hasExited = false
    }

    /// The loop's name, which its thread carries.
    public let name: String
    private let poller: Poller
    /// The serial executor actors pinned to the loop share (``asUnownedSerialExecutor()``).
    private let isolation = LoopIsolation()
    private let inbox = Mutex(Inbox())
    /// Set with the inbox's lock held whenever it gets work (or a stop), so the loop looks at the inbox only then.
    private let hasRemoteWork = Atomic(false)
    // Unchecked exclusivity: the run queue and the handlers are the loop thread's alone, and a dynamic access check
    // on every job and every event cost more than the queue itself.
    @exclusivity(unchecked) private var ready: [LoopWork] = []
    @exclusivity(unchecked) private var handlers: [Int32: any LoopHandler] = [:]
    /// The clocks with moving sleepers (``LoopClock/sleep(whileRemainingNanoseconds:)``): the loop waits no longer than their
    /// earliest deadline, asked before each wait, and wakes those due after a wait that ran out. A clock leaves the
    /// list once none of its moving sleepers is left.
    @exclusivity(unchecked) private var timers: [DeadlineTimer] = []

    /// Makes the loop and starts its thread.
    ///
    /// - Parameter name: The thread's name, for debuggers and `top -H`.
    /// - Throws: ``EventLoopError`` when the kernel gives no descriptor to wait with.
    public init(name: String = "ftw.loop") throws(EventLoopError) {
        self.name = name
        poller = try Poller()
        isolation.loop = self
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            LoopThread.set(self)
            started.signal()
            run()
        }
        thread.name = name
        thread.start()
        started.wait()
    }

    /// The loop every socket uses unless it is given another: one thread for the process, made on first use.
    ///
    /// - Throws: ``EventLoopError`` when the loop could not be made (out of descriptors); the next call tries again.
    public static func shared() throws(EventLoopError) -> EventLoop {
        try sharedLoop.withLock { loop throws(EventLoopError) in
            if let loop { return loop }
            let made = try EventLoop(name: "ftw.loop")
            loop = made
            return made
        }
    }

    private static let sharedLoop = Mutex<EventLoop?>(nil)

    /// Whether the calling thread is the loop's.
    public var inEventLoop: Bool { LoopThread.isCurrent(self) }

    /// Runs `work` on the loop's thread, after the work queued before it.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    /// Runs `body` as a task on the loop and blocks the calling thread until it returns: a program's main, so that
    /// the program's work starts on the loop instead of on libdispatch's queues (whose worker pool, once started,
    /// wakes a Linux process every second for good).
    ///
    /// - Important: Never call it on the loop's own thread.
    public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        precondition(!inEventLoop, "EventLoop.runBlocking on the loop's own thread would never return")
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: self) {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        guard let value = result.withLock({ $0 }) else { preconditionFailure("the loop's task ended without a result") }
        return value
    }

    /// Stops the loop once the work queued so far has run; its thread ends.
    ///
    /// Close every socket on it first. Work submitted afterwards still runs: jobs on the global concurrent executor,
    /// closures on the submitting thread. ``shared()``'s loop is never stopped.
    public func shutdown() {
        inbox.withLock { inbox in
            inbox.isStopping = true
            hasRemoteWork.store(true, ordering: .releasing)
        }
        poller.wake()
    }

    func submit(_ work: LoopWork) {
        if inEventLoop {
            ready.append(work)
            return
        }
        let (wake, exited) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.hasExited else { return (false, true) }
            inbox.work.append(work)
            hasRemoteWork.store(true, ordering: .releasing)
            defer { inbox.isWakeRequested = true }
            return (!inbox.isWakeRequested, false)
        }
        if exited { return work.runAfterExit() }
        if wake { poller.wake() }
    }

    private func run() {
        var stopping = false
        while true {
            if runQueued() { stopping = true }
            if stopping, ready.isEmpty { break }
            let mustLookOnly = !ready.isEmpty
            let timeoutMs = mustLookOnly ? 0 : millisecondsUntilNextDeadline()
            var isReady = false
            let woken = poller.wait(timeoutMs: timeoutMs) { readiness in
                isReady = true
                guard let handler = handlers[readiness.descriptor] else { return }
                if readiness.isWritable { handler.writable() }
                // Looked up again only when a write ran first: it may have let the socket go.
                if readiness.isReadable, !readiness.isWritable || handlers[readiness.descriptor] === handler {
                    handler.readable()
                }
            }
            // Only a wait that ran out (or only looked) can have reached a deadline; one a socket or another thread
            // ended early leaves the clock unread, and a deadline that came meanwhile makes the next wait a look.
            if timeoutMs >= 0, !isReady, !woken { wakeSleepersDue() }
        }
        let late = inbox.withLock { inbox -> [LoopWork] in
            inbox.hasExited = true
            defer { inbox.work = [] }
            return inbox.work
        }
        for work in late { work.runAfterExit() }
    }

    /// Runs what is queued, and what that queues, up to ``jobsBetweenPolls`` jobs so sockets are looked at between
    /// long cascades; returns whether the loop was asked to stop.
    private func runQueued() -> Bool {
        var stopping = takeInbox()
        var index = 0
        while index < ready.count, index < Self.jobsBetweenPolls {
            let work = ready[index]
            index += 1
            run(work)
            if index == ready.count, takeInbox() { stopping = true }
        }
        if index == ready.count {
            ready.removeAll(keepingCapacity: true)
        } else {
            ready.removeFirst(index)
        }
        return stopping
    }

    /// Moves the inbox's work onto the run queue, if it has any; returns whether the loop was asked to stop.
    private func takeInbox() -> Bool {
        guard hasRemoteWork.load(ordering: .acquiring) else { return false }
        return inbox.withLock { inbox in
            hasRemoteWork.store(false, ordering: .relaxed)
            inbox.isWakeRequested = false
            if !inbox.work.isEmpty {
                ready.append(contentsOf: inbox.work)
                inbox.work.removeAll(keepingCapacity: true)
            }
            return inbox.isStopping
        }
    }

    #if DEBUG
    /// Debug builds: the Swift jobs the loop has run, so a test can tell how often a task went back through the run
    /// queue.
    package var jobsRun: Int { jobCount.load(ordering: .relaxed) }
    private let jobCount = Atomic(0)
    #endif

    private func run(_ work: LoopWork) {
        switch work {
        case .job(let job):
            #if DEBUG
            jobCount.add(1, ordering: .relaxed)
            #endif
            // As a task executor only: a job isolated to nothing runs as such, so the nonisolated async calls of a
            // frame's way (the carrier's stream, the WebSocket's receive) continue inline. Run as isolated to the
            // loop, every one of them counted as leaving the loop's isolation and went back through the run queue:
            // eleven jobs a live frame. An actor pinned to the loop is still isolated here, which `checkIsolated()`
            // confirms by the thread.
            job.runSynchronously(on: asUnownedTaskExecutor())
        case .isolatedJob(let job):
            #if DEBUG
            jobCount.add(1, ordering: .relaxed)
            #endif
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        case .closure(let closure):
            closure()
        }
    }

    private static let jobsBetweenPolls = 4_096
}

extension EventLoop {
    /// Watches `descriptor` (non-blocking) for what is asked and calls `handler` on the loop's thread when it is
    /// ready; asking for neither reading nor writing stops watching it, and its handler is let go.
    ///
    /// A descriptor watched for nothing is not in the kernel's set at all, so a socket that hung up while nobody
    /// reads it does not wake the loop again and again. Stop watching a descriptor before closing it.
    /// - Important: Call on the loop's thread.
    /// - Returns: Whether the kernel accepted the change (false: the process or the system is out of memory).
    @discardableResult
    package func watch(_ descriptor: Int32, _ handler: any LoopHandler, reading: Bool, writing: Bool) -> Bool {
        assert(inEventLoop, "EventLoop.watch off the loop's thread")
        guard reading || writing else {
            if handlers.removeValue(forKey: descriptor) != nil { poller.forget(descriptor) }
            return true
        }
        let isNew = handlers[descriptor] == nil
        guard poller.watch(descriptor, reading: reading, writing: writing, isNew: isNew) else { return false }
        handlers[descriptor] = handler
        return true
    }

    /// Has the loop wait no longer than `timer`'s earliest deadline, until it has no sleeper left.
    /// - Important: Call on the loop's thread.
    func schedule(_ timer: DeadlineTimer) {
        assert(inEventLoop, "EventLoop.schedule off the loop's thread")
        timers.append(timer)
    }

    /// How long the loop may wait, as the kernel's wait takes it: until the earliest deadline of its clocks' moving
    /// sleepers in whole milliseconds rounded up (so the wait never ends before it, and at most a day), or -1 for
    /// ever without one. A clock left with none (its last one cancelled) leaves the list here. Integer arithmetic:
    /// it runs before each wait while a stream's gap rule is pending, a few times a frame.
    fileprivate func millisecondsUntilNextDeadline() -> Int32 {
        var earliest = Int64.max
        var index = 0
        while index < timers.count {
            guard let next = timers[index].nanosecondsUntilNextMovingDeadline() else {
                timers.remove(at: index)
                continue
            }
            earliest = min(earliest, next)
            index += 1
        }
        guard earliest < .max else { return -1 }
        return Int32(min((earliest + 999_999) / 1_000_000, 86_400_000))
    }

    /// Wakes the moving sleepers whose deadline has come, and lets go of the clocks left with none.
    fileprivate func wakeSleepersDue() {
        var index = 0
        while index < timers.count {
            if timers[index].wakeMovingDue() { index += 1 } else { timers.remove(at: index) }
        }
    }

    /// How many descriptors the loop watches now.
    package var watchedCount: Int {
        assert(inEventLoop, "EventLoop.watchedCount off the loop's thread")
        return handlers.count
    }
}

extension EventLoop: TaskExecutor, SerialExecutor {
    /// Queues `job` on the loop's thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// The loop as a task executor, for `withTaskExecutorPreference`.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// The loop as an actor's serial executor: one object per loop whose jobs run isolated to it, so actors pinned
    /// to one loop switch between each other inline (a task's own jobs run isolated to nothing).
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: isolation)
    }

    /// Traps unless called on the loop's thread: what `assumeIsolated` relies on.
    public func checkIsolated() {
        precondition(inEventLoop, "expected to run on the event loop \(name)")
    }

    /// Whether the caller runs on the loop's thread.
    public func isIsolatingCurrentContext() -> Bool? {
        inEventLoop
    }
}

/// The loop's serial executor: what an actor pinned to the loop is isolated to. Its jobs run on the loop's thread
/// isolated to it (and preferring the loop as their task executor), where a task's own jobs run isolated to nothing.
final class LoopIsolation: SerialExecutor, @unchecked Sendable {
    // @unchecked: `loop` is set once, right after the loop is made, before anything can enqueue.
    unowned(unsafe) var loop: EventLoop!

    func enqueue(_ job: consuming ExecutorJob) {
        loop.submit(.isolatedJob(UnownedJob(job)))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        loop.checkIsolated()
    }

    func isIsolatingCurrentContext() -> Bool? {
        loop.inEventLoop
    }
}

/// Something the loop runs: a Swift job, or a closure from the socket layer.
enum LoopWork {
    case job(UnownedJob)
    /// A job of an actor pinned to the loop.
    case isolatedJob(UnownedJob)
    case closure(@Sendable () -> Void)

    /// Runs work that arrived after the loop stopped somewhere it still can.
    func runAfterExit() {
        switch self {
        case .job(let job), .isolatedJob(let job): globalConcurrentExecutor.enqueue(job)
        case .closure(let closure): closure()
        }
    }
}

/// The loop whose thread is running, kept in a pthread key so "am I on the loop?" is one lookup.
private enum LoopThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static func set(_ loop: EventLoop) {
        pthread_setspecific(key, Unmanaged.passUnretained(loop).toOpaque())
    }

    static func isCurrent(_ loop: EventLoop) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(loop).toOpaque()
    }
}
