public import Synchronization

/// Typed events from one publisher to any number of subscribers, each with its own ``BusStream``.
///
/// Modules talk through actor interfaces and through buses like this one: a module declares its event enum and
/// publishes values; whoever cares subscribes. `publish` is synchronous, so the events of one publisher keep their
/// order.
///
/// ## Concurrency
/// The subscriber table is the bus's only state and sits behind a `Mutex`; events are handed to the subscribers'
/// queues outside the lock. A stream ends for its subscriber when it is cancelled or dropped, and for everyone on
/// ``finish()``.
public final class EventBus<Event: Sendable>: Sendable {
    /// Decides, inside ``publish(_:)``, whether a subscriber gets an event.
    public typealias Filter = @Sendable (Event) -> Bool

    // The table's types are visible to inlined code so that `publish`, which runs for every live frame, is
    // specialised in the publisher's module, down to each subscriber's queue.
    @usableFromInline struct Subscriber {
        @usableFromInline let id: Int
        @usableFromInline let filter: Filter?
        @usableFromInline let mailbox: BusMailbox<Event>

        @inlinable init(id: Int, filter: Filter?, mailbox: BusMailbox<Event>) {
            self.id = id
            self.filter = filter
            self.mailbox = mailbox
        }
    }

    @usableFromInline struct State {
        @usableFromInline var nextID = 0
        /// In subscription order, so every run hands an event to its subscribers in the same order.
        @usableFromInline var subscribers: [Subscriber] = []
        @usableFromInline var finished = false

        @inlinable init() {}
    }

    @usableFromInline let state: Mutex<State> = Mutex(State())

    /// Makes a bus with no subscribers.
    @inlinable public init() {}

    /// A new stream of the events published from now on, every one or only those `filter` accepts.
    ///
    /// A live frame reaches a dozen subscribers a second; most of them care about it only now and then. The filter
    /// runs inside ``publish(_:)`` on the publisher's thread, so an event a subscriber does not want costs one call
    /// instead of a hand-over to its task. It must be quick and must not block. The stream keeps the events its
    /// consumer has not read yet, up to `buffering`'s bound.
    ///
    /// - Parameters:
    ///   - filter: Whether the subscriber gets an event; nil for every event.
    ///   - buffering: How many unread events the stream keeps at most, and which go past that.
    @inlinable
    public func subscribe(where filter: Filter? = nil, buffering: BusBuffering = .standard) -> BusStream<Event> {
        let mailbox = BusMailbox<Event>(buffering: buffering)
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers.append(Subscriber(id: state.nextID, filter: filter, mailbox: mailbox))
            return state.nextID
        }
        guard let id else {
            mailbox.finish()
            return BusStream(mailbox)
        }
        mailbox.onLeave { [weak self] in self?.unsubscribe(id) }
        return BusStream(mailbox)
    }

    /// Takes the subscriber `id` off the table: its consumer went away.
    @usableFromInline
    func unsubscribe(_ id: Int) {
        state.withLock { $0.subscribers.removeAll { $0.id == id } }
    }

    /// Hands `event` to every current subscriber that wants it, in the order `publish` is called.
    @inlinable public func publish(_ event: Event) {
        // The table itself, not a copy: a publish allocates nothing unless a subscription changed since the last.
        let subscribers = state.withLock(\.subscribers)
        // Through the buffer, not `for subscriber in`: each element copied out costs a retain and a release of its
        // filter and of its queue, a dozen subscribers every live frame.
        subscribers.withUnsafeBufferPointer { table in
            for index in table.indices where table[index].filter?(event) ?? true {
                table[index].mailbox.deliver(event)
            }
        }
    }

    /// How many subscribers are listening.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    #if DEBUG
    /// Debug builds: how many events the current subscribers took on another thread than the one that published
    /// them. A client whose session and models share one executor takes every live frame on the publisher's thread,
    /// so this stays 0; each subscriber that reads on another thread adds one per event.
    public var threadCrossings: Int {
        state.withLock { $0.subscribers.reduce(0) { $0 + $1.mailbox.handOffs.crossings } }
    }
    #endif

    /// Ends every subscriber's stream; later subscribers get a stream that is already finished.
    @inlinable
    public func finish() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.mailbox.finish() }
    }
}
