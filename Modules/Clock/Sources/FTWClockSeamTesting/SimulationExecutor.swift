import Foundation
import Synchronization

/// A serial task executor on one thread of its own, which can tell when it has nothing left to run.
///
/// Every task started under its preference (``Simulation/run(_:)``), every child task of those, and every default
/// actor they call run here, one job at a time. "Nothing left to run" is therefore a fact, not a guess: it is what
/// lets a simulated hour pass in milliseconds with every request frame in a deterministic order, where yielding a
/// few times and hoping (the `megaYield` heuristic) would flake.
///
/// ## Concurrency
/// `enqueue` may be called from any thread; jobs run only on the executor's own thread. The queue and the idle
/// waiters sit behind one `NSCondition`.
public final class SimulationExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every stored property is either immutable or guarded by `condition`.
    // TODO: move to `Mutex` plus a futex-backed wait once the standard library offers a condition variable.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var stopping = false
    private var jobsRun = 0

    /// Makes the executor and starts its thread.
    public init() {
        let thread = Thread { [self] in
            SimulationExecutor.current = self
            runLoop()
        }
        thread.name = "ftw.simulation"
        thread.start()
        EnqueueHook.installOnce()
    }

    /// How many jobs the executor has run: a cheap measure of how much work a simulated stretch of time took.
    public var jobCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobsRun
    }

    /// Takes a job onto the queue; it runs on the executor's thread in arrival order.
    public func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Suspends until every job is done and nothing new was queued meanwhile.
    ///
    /// - Important: Call it only from a task running on this executor; its resumption is itself a job here.
    public func untilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            idleWaiters.append(continuation)
            condition.signal()
            condition.unlock()
        }
    }

    /// Stops the thread once its queue is empty.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func runLoop() {
        while let job = nextJob() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The next job to run, resuming one idle waiter whenever the queue runs dry; nil once stopped and drained.
    private func nextJob() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty {
            if !idleWaiters.isEmpty {
                let waiter = idleWaiters.removeFirst()
                condition.unlock()
                waiter.resume()
                condition.lock()
                continue
            }
            if stopping { return nil }
            condition.wait()
        }
        jobsRun += 1
        return jobs.removeFirst()
    }

    /// The executor whose thread is running now, if any.
    static var current: SimulationExecutor? {
        get { ThreadLocalExecutor.get() }
        set { ThreadLocalExecutor.set(newValue) }
    }
}

/// The executor owning the current thread, kept in a pthread key so the global enqueue hook can find it cheaply.
private enum ThreadLocalExecutor {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static func get() -> SimulationExecutor? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<SimulationExecutor>.fromOpaque(pointer).takeUnretainedValue()
    }

    static func set(_ executor: SimulationExecutor?) {
        pthread_setspecific(key, executor.map { Unmanaged.passUnretained($0).toOpaque() })
    }
}

/// Catches work that escapes the task-executor preference (an unstructured `Task {}` started inside a
/// simulation) and keeps it on the simulation's thread, so the idle check stays a fact.
///
/// Jobs enqueued from any other thread go to the global executor as before.
private enum EnqueueHook {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    private static let installed = Mutex(false)

    static func installOnce() {
        installed.withLock { installed in
            guard !installed, let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else {
                return
            }
            installed = true
            let hook = symbol.assumingMemoryBound(to: Hook?.self)
            hook.pointee = { job, original in
                if let executor = SimulationExecutor.current {
                    executor.enqueue(job)
                } else {
                    original(job)
                }
            }
        }
    }
}
