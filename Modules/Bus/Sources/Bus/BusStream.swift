/// One subscriber's events from an ``EventBus``, in the order they were published, for one consumer.
///
/// It ends after the bus finishes (once the events still queued are read), or when the consuming task is cancelled.
/// Dropping the stream and its iterator takes the subscription off the bus, so a subscriber that went away costs
/// the publisher nothing.
public struct BusStream<Event: Sendable>: AsyncSequence, Sendable {
    /// What the stream's consumer holds: when the last copy goes, the subscription leaves its bus.
    @usableFromInline
    final class Consumer: Sendable {
        @usableFromInline let mailbox: BusMailbox<Event>

        @usableFromInline init(_ mailbox: BusMailbox<Event>) {
            self.mailbox = mailbox
        }

        deinit {
            mailbox.cancel()
        }
    }

    @usableFromInline let consumer: Consumer

    @usableFromInline init(_ mailbox: BusMailbox<Event>) {
        consumer = Consumer(mailbox)
    }

    /// A stream and the feed that fills it, for a service's own inputs.
    public static func makeStream() -> (stream: BusStream<Event>, feed: BusFeed<Event>) {
        let mailbox = BusMailbox<Event>()
        return (BusStream(mailbox), BusFeed(mailbox))
    }

    /// Reads the stream's events.
    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: consumer)
    }

    /// Reads one event at a time, suspending while none is queued.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let consumer: Consumer

        @usableFromInline init(consumer: Consumer) {
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
