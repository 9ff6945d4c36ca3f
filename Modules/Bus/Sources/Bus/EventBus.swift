import Synchronization

/// Typed events from one publisher to any number of subscribers, each with its own `AsyncStream`.
///
/// Modules talk through actor interfaces and through buses like this one: a module declares its event enum and
/// publishes values; whoever cares subscribes. `publish` is synchronous, so the events of one publisher keep their
/// order, and each subscriber chooses how much it buffers (a high-rate consumer picks `.bufferingNewest`).
///
/// ## Concurrency
/// The subscriber table is the bus's only state and sits behind a `Mutex`; continuations are yielded to outside
/// the lock. A stream ends for its subscriber when it is cancelled or dropped, and for everyone on ``finish()``.
public final class EventBus<Event: Sendable>: Sendable {
    private struct State {
        var nextID = 0
        /// In subscription order, so every run hands an event to its subscribers in the same order.
        var subscribers: [(id: Int, continuation: AsyncStream<Event>.Continuation)] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Makes a bus with no subscribers.
    public init() {}

    /// A new stream of every event published from now on.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps while its consumer is behind.
    public func subscribe(
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers.append((state.nextID, continuation))
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
        return stream
    }

    /// Hands `event` to every current subscriber, in the order `publish` is called.
    public func publish(_ event: Event) {
        let subscribers = state.withLock { state in state.subscribers.map { $0.continuation } }
        for subscriber in subscribers { subscriber.yield(event) }
    }

    /// How many subscribers are listening.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Ends every subscriber's stream; later subscribers get a stream that is already finished.
    public func finish() {
        let subscribers = state.withLock { state -> [AsyncStream<Event>.Continuation] in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers.map(\.continuation)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
