/// The producing end of a ``BusStream`` made with ``BusStream/makeStream(buffering:)``: a service's own inputs, fed by its
/// child tasks and callers rather than by an ``EventBus``.
///
/// It hands events over as the bus does (in order, without suspending, specialised where it is used), so a service
/// whose loop takes one input per live frame pays no more for it than a bus subscriber does.
public struct BusFeed<Event: Sendable>: Sendable {
    @usableFromInline let mailbox: BusMailbox<Event>

    @inlinable init(_ mailbox: BusMailbox<Event>) {
        self.mailbox = mailbox
    }

    /// Queues `event` for the stream's consumer; dropped once the stream ended.
    @inlinable
    public func yield(_ event: Event) {
        mailbox.deliver(event)
    }

    /// Ends the stream once its consumer has read what is queued.
    @inlinable
    public func finish() {
        mailbox.finish()
    }
}
