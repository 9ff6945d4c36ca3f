import Foundation

/// A task executor on one thread of its own, for a test that computes for seconds without suspending.
///
/// Jobs run in arrival order; ``shutdown()`` lets the thread end once its queue is empty.
///
/// ## Concurrency
/// `enqueue` may be called from any thread; jobs run only on the executor's thread. The queue sits behind one
/// `NSCondition`.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every stored property is immutable or guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    /// Makes the executor and starts its thread.
    init() {
        let thread = Thread { [self] in
            Self.marker.set()
            while let job = nextJob() { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once its queue is empty.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// Whether the calling thread is one of these executors' threads.
    static var isCurrent: Bool { marker.isSet }

    private static let marker = ThreadMarker()

    private func nextJob() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty {
            if stopping { return nil }
            condition.wait()
        }
        return jobs.removeFirst()
    }
}

/// A flag each thread holds for itself (a pthread key), set once and never cleared.
private final class ThreadMarker: Sendable {
    private let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    var isSet: Bool { pthread_getspecific(key) != nil }

    func set() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
}
