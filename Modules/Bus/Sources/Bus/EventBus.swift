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
    /// Decides, inside ``publish(_:)``, whether a subscriber gets an event.
    public typealias Filter = @Sendable (Event) -> Bool

    private struct Subscriber {
        var id: Int
        var continuation: AsyncStream<Event>.Continuation
        var filter: Filter?
    }

    private struct State {
        var nextID = 0
        /// In subscription order, so every run hands an event to its subscribers in the same order.
        var subscribers: [Subscriber] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Makes a bus with no subscribers.
    public init() {}

    /// A new stream of the events published from now on, every one or only those `filter` accepts.
    ///
    /// A live frame reaches a dozen subscribers a second; most of them care about it only now and then. The filter
    /// runs inside ``publish(_:)`` on the publisher's thread, so an event a subscriber does not want costs one call
    /// instead of a hand-over to its task. It must be quick and must not block.
    ///
    /// - Parameters:
    ///   - bufferingPolicy: What the stream keeps while its consumer is behind.
    ///   - filter: Whether the subscriber gets an event; nil for every event.
    public func subscribe(
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded,
        where filter: Filter? = nil
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers.append(Subscriber(id: state.nextID, continuation: continuation, filter: filter))
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

    /// Hands `event` to every current subscriber that wants it, in the order `publish` is called.
    public func publish(_ event: Event) {
        // The table itself, not a copy: a publish allocates nothing unless a subscription changed since the last.
        let subscribers = state.withLock(\.subscribers)
        for subscriber in subscribers where subscriber.filter?(event) ?? true {
            subscriber.continuation.yield(event)
        }
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
