import FTWBus
import Synchronization

/// Wakes one observer when any bus it watches publishes; any number of publications before the observer looks again
/// are one wake, so a slow observer reads the newest state once instead of working through a backlog.
///
/// ## Concurrency
/// Each watched bus calls the signal inside its `publish`, on the publisher's thread, through a subscription filter
/// that takes nothing into the subscriber's queue: a publication costs the publisher one call and the observer at
/// most one wake. The subscriptions are held here, so they leave their buses when the signal goes.
final class ChangeSignal: Sendable {
    private let wakes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let subscriptions = Mutex<[any Sendable]>([])

    init() {
        (wakes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    deinit {
        continuation.finish()
    }

    /// Wakes the observer whenever `bus` publishes an event `matters` accepts (any, by default), from now on.
    func watch<Event: Sendable>(_ bus: EventBus<Event>, where matters: (@Sendable (Event) -> Bool)? = nil) {
        let continuation = continuation
        let subscription = bus.subscribe { event in
            if matters?(event) ?? true { continuation.yield() }
            return false
        }
        subscriptions.withLock { $0.append(subscription) }
    }

    /// The wakes, for the one observer.
    func makeWakeIterator() -> AsyncStream<Void>.Iterator {
        wakes.makeAsyncIterator()
    }
}
