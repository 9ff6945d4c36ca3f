import FTWBus

/// A cap on a test's wait for something another thread, socket or process does. The wait itself is on an event (a
/// line printed, a message received, an event published), never a poll; the cap only turns a hang into a failure
/// that says what never came.
///
/// The cap does not wait for work that ignores cancellation: at the limit the caller fails at once, whatever the
/// work does afterwards, so a wait on the wrong event fails its test instead of hanging the run.
public enum TimeLimit {
    /// What a wait that ran out throws: what was awaited and how long it was given.
    public struct Exceeded: Error, CustomStringConvertible {
        /// What never came, as the test names it.
        public let what: String
        /// The limit, as the clock's duration prints it.
        public let limit: String

        /// The line a person reads in the failed test.
        public var description: String { "\(what): nothing within \(limit)" }
    }

    /// `work`'s result, or ``Exceeded`` once `limit` has passed on `clock`.
    ///
    /// - Parameters:
    ///   - limit: How long `work` may take: generous, a guard against a hang, not a timing check.
    ///   - clock: The clock the limit runs on (the real one, for loopback and child-process tests).
    ///   - what: What is awaited, for the failure's message.
    ///   - work: The wait on an event.
    /// - Throws: ``Exceeded``, what `work` throws, or `CancellationError` when the caller is cancelled.
    public static func within<C: Clock, T: Sendable>(
        _ limit: C.Duration,
        on clock: C,
        _ what: String,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = OneShot<Result<T, any Error>>()
        let worker = Task {
            do {
                outcome.fulfil(.success(try await work()))
            } catch {
                outcome.fulfil(.failure(error))
            }
        }
        let timer = Task {
            do {
                try await clock.sleep(for: limit)
                outcome.fulfil(.failure(Exceeded(what: what, limit: "\(limit)")))
            } catch {
                outcome.fulfil(.failure(error))
            }
        }
        let result = await withTaskCancellationHandler {
            await outcome.value
        } onCancel: {
            outcome.fulfil(.failure(CancellationError()))
        }
        worker.cancel()
        timer.cancel()
        return try result.get()
    }
}
