public import Testing

/// Runs each test it marks on a thread of its own instead of on Swift's cooperative pool: for a test that computes
/// for seconds without suspending (a fuzz loop, thousands of mutated frames).
///
/// The pool has one thread per core, two on CI. A full run keeps more threads busy than that (simulations, event
/// loops, child processes), so a computing test held its pool thread for tens of seconds of wall time, and with two
/// of them every server handler in the run waited: raw clients got no answer within their 60 s patience. On a thread
/// of its own the test still gets its share of the cores, and the pool stays free for the tasks that only wait.
///
/// The test runs in its own task as before, so `#expect` and `#require` report to it.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    /// A suite marked runs each of its tests, each case of a parameterised test, on a thread of its own.
    public var isRecursive: Bool { true }

    /// Runs a test case under the preference of an executor on a new thread; a suite itself runs as it would.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        let executor = ThreadExecutor()
        defer { executor.shutdown() }
        try await withTaskExecutorPreference(executor, operation: function)
    }
}

extension OwnThreadTrait {
    /// Whether the caller runs on a thread the trait made: what a test checks to know it is off the pool.
    public static var isCurrentThreadOwn: Bool { ThreadExecutor.isCurrent }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs the test (each test of the suite) on a thread of its own, off the cooperative pool: see
    /// ``OwnThreadTrait``.
    public static var ownThread: Self { Self() }
}
