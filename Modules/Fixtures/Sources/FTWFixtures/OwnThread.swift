import Foundation

/// Runs blocking work (a child process to its end, a pipe read to its end) on a thread of its own, so the test
/// that waits for it suspends instead of holding one of the cooperative pool's threads.
///
/// On a 2-core machine the pool has two threads: two tests blocked in `waitUntilExit` for a 20-second Python
/// cross-check froze every other test of the run, and tests whose real-time guards are 20 s failed for nothing.
public enum OwnThread {
    /// Runs `work` on a new thread and returns its result.
    ///
    /// - Throws: What `work` throws.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
