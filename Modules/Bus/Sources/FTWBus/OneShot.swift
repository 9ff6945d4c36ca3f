import Synchronization

/// A value set once by whichever of several racers gets there first, and awaited by one task.
///
/// It lets a blocking thread and a clock deadline race without either being able to resume a continuation twice:
/// ``fulfil(_:)`` reports whether this racer won, so the loser knows it must clean up after itself.
public final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        /// Nobody has fulfilled it and nobody is waiting.
        case empty
        /// The task is waiting; the first fulfilment resumes it.
        case waiting(CheckedContinuation<Value, Never>)
        /// Fulfilled before anyone waited.
        case ready(Value)
        /// Fulfilled and handed over.
        case done
    }

    private let state = Mutex(State.empty)

    /// Makes an empty one.
    public init() {}

    /// Sets the value unless another racer already did.
    ///
    /// - Returns: Whether this call won.
    @discardableResult
    public func fulfil(_ value: Value) -> Bool {
        let (won, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            switch state {
            case .empty:
                state = .ready(value)
                return (true, nil)
            case .waiting(let continuation):
                state = .done
                return (true, continuation)
            case .ready, .done:
                return (false, nil)
            }
        }
        waiter?.resume(returning: value)
        return won
    }

    /// The winning value, waiting for it if need be; call from one task only.
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    switch state {
                    case .ready(let value):
                        state = .done
                        return value
                    case .empty:
                        state = .waiting(continuation)
                        return nil
                    case .waiting, .done:
                        fatalError("OneShot.value awaited twice")
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
