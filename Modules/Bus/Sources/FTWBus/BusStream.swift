/// One subscriber's events from an ``EventBus``, in the order they were published, for one consumer.
///
/// It ends after the bus finishes (once the events still queued are read), or when the consuming task is cancelled.
/// Dropping the stream and its iterator takes the subscription off the bus, so a subscriber that went away costs
/// the publisher nothing. It keeps at most its ``BusBuffering`` bound of unread events.
///
/// One task reads it at a time: a second task that waits on it while another waits traps (as `AsyncStream`
/// does), where it used to leave the first waiting forever without a word.
public struct BusStream<Event: Sendable>: AsyncSequence, Sendable {
    /// What the stream's consumer holds: when the last copy goes, the subscription leaves its bus.
    @usableFromInline
    final class Consumer: Sendable {
        @usableFromInline let mailbox: BusMailbox<Event>

        @inlinable init(_ mailbox: BusMailbox<Event>) {
            self.mailbox = mailbox
        }

        deinit {
            mailbox.cancel()
        }
    }

    @usableFromInline let consumer: Consumer

    @inlinable init(_ mailbox: BusMailbox<Event>) {
        consumer = Consumer(mailbox)
    }

    /// A stream and the feed that fills it, for a service's own inputs.
    ///
    /// - Parameter buffering: How many inputs wait at most, and which go past that.
    @inlinable
    public static func makeStream(
        buffering: BusBuffering = .standard
    ) -> (stream: BusStream<Event>, feed: BusFeed<Event>) {
        let mailbox = BusMailbox<Event>(buffering: buffering)
        return (BusStream(mailbox), BusFeed(mailbox))
    }

    /// How many events the stream dropped because its consumer left them unread past the bound.
    @inlinable public var dropped: Int { consumer.mailbox.dropped }

    /// Hands every event to `body`, in order, until the stream ends or the consuming task is cancelled.
    ///
    /// The loop of a consumer that every live frame resumes: `for await` installs a cancellation handler around
    /// each wait, this one around the whole loop, which saves the runtime two updates of the task's status records
    /// (each under the task's lock) per event. `body` runs on the caller's isolation and must not suspend.
    ///
    /// - Parameters:
    ///   - actor: Where `body` runs; the caller's actor unless told.
    ///   - body: What to do with each event.
    @inlinable
    public func forEach(isolation actor: isolated (any Actor)? = #isolation, _ body: (Event) -> Void) async {
        await consumer.mailbox.forEach(isolation: actor, body)
    }

    /// ``forEach(isolation:_:)`` for a consumer that shares `executor` with the publisher (a client's actors on
    /// its event loop): an event published on that executor's thread is handed to `body` inside the publisher's
    /// call, with no task resumed and no job; others resume the consumer's task as before. With no executor
    /// (a simulation, a test), it is ``forEach(isolation:_:)``.
    ///
    /// `body` must be isolated to `executor` (the caller's actor runs on it) and must not suspend.
    ///
    /// - Parameters:
    ///   - actor: Where `body` runs; the caller's actor unless told.
    ///   - executor: The serial executor the caller's actor shares, or nil.
    ///   - body: What to do with each event.
    @inlinable
    public func forEach(
        isolation actor: isolated (any Actor)? = #isolation,
        sharing executor: (any SerialExecutor)?,
        _ body: (Event) -> Void
    ) async {
        await consumer.mailbox.forEach(isolation: actor, sharing: executor, body)
    }

    /// Reads the stream's events.
    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: consumer)
    }

    /// Reads one event at a time, suspending while none is queued.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let consumer: Consumer

        @inlinable init(consumer: Consumer) {
            self.consumer = consumer
        }

        /// The next event, nil once the stream ended.
        @inlinable
        public mutating func next() async -> Event? {
            await consumer.mailbox.next(isolation: nil)
        }

        /// The next event, nil once the stream ended; resumes on `actor`, so a loop inside an actor does not hop.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Event? {
            await consumer.mailbox.next(isolation: actor)
        }
    }
}
