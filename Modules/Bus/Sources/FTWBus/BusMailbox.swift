public import Synchronization

/// One subscription's queue: what ``EventBus/publish(_:)`` put in and its consumer has not taken yet, and the
/// consumer's wait when there is nothing.
///
/// It replaces an `AsyncStream` per subscriber. The standard library's stream is generic code that is never
/// specialised, so each hand-over looked up half a dozen type metadata at run time (a fifth of a live frame's cost
/// in `ftw-bench frame`); this queue is inlined and specialised in the module that publishes or consumes.
///
/// ## Bound
/// At most ``BusBuffering/limit`` events wait; past it the policy drops the oldest or the newest and counts it
/// (``dropped``), so a consumer that stopped reading holds a fixed amount of memory.
///
/// ## Concurrency
/// One consumer: a second task that waits while another already waits traps, as `AsyncStream` does, rather than
/// leave the first waiting forever. The buffer, the waiting consumer and whether the queue ended sit behind one
/// `Mutex`; the consumer is resumed outside it. The queue ends when the bus finishes (the consumer still reads what
/// was buffered) or when the consumer is cancelled or dropped (the buffer is let go and the subscription leaves its
/// bus).
@usableFromInline
final class BusMailbox<Event: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var buffer: [Event] = []
        @usableFromInline var head = 0
        @usableFromInline var waiter: UnsafeContinuation<Event?, Never>?
        @usableFromInline var ended = false
        @usableFromInline var dropped = 0
        @usableFromInline let buffering: BusBuffering
        @usableFromInline var leave: (@Sendable () -> Void)?
        /// The waiting consumer's body, when it may be called inside ``deliver(_:)`` on its executor's thread.
        @usableFromInline var inline: InlineConsumer?

        @usableFromInline init(buffering: BusBuffering) {
            self.buffering = buffering
        }

        /// Events queued and not taken yet.
        @inlinable var queued: Int { buffer.count - head }

        /// Queues `event`, or drops it or the oldest when the queue is full.
        @inlinable
        mutating func keep(_ event: Event) {
            guard queued >= buffering.limit else { return buffer.append(event) }
            dropped += 1
            guard buffering.whenFull == .dropOldest else { return }
            head += 1
            // The slots before `head` are spent: let them go once they are as many as the bound, so a consumer that
            // never reads holds at most twice the bound.
            if head >= buffering.limit {
                buffer.removeFirst(head)
                head = 0
            }
            buffer.append(event)
        }

        /// The next event, `.some(nil)` once the queue ended and is empty, or nil when the consumer must wait.
        @inlinable
        mutating func take() -> Event?? {
            guard head < buffer.count else { return ended ? .some(nil) : nil }
            let event = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            }
            return .some(event)
        }
    }

    /// A consumer that takes events inside the publisher's call when the publisher runs on the consumer's serial
    /// executor's thread: the consumer is isolated there, and nothing else of that executor runs meanwhile.
    @usableFromInline
    struct InlineConsumer: Sendable {
        @usableFromInline let executor: any SerialExecutor
        @usableFromInline let body: InlineBody

        @inlinable init(executor: any SerialExecutor, body: InlineBody) {
            self.executor = executor
            self.body = body
        }

        /// Whether the caller runs on the executor's thread, where the consumer (which shares that executor) is
        /// isolated. False where the runtime cannot ask (before macOS 26 and iOS 26): the task takes the event.
        @inlinable var isCurrent: Bool {
            guard #available(macOS 26, iOS 26, *) else { return false }
            return executor.isIsolatingCurrentContext() == true
        }
    }

    /// The consumer's body, held only while its ``forEach(isolation:sharing:_:)`` waits.
    @usableFromInline
    final class InlineBody: @unchecked Sendable {
        // @unchecked: `take` is called only on the consumer's executor's thread (checked in ``deliver(_:)``), and
        // never after the consumer's loop returned, which happens on that thread too.
        @usableFromInline let take: (Event) -> Void

        @inlinable init(_ take: @escaping (Event) -> Void) {
            self.take = take
        }
    }

    @usableFromInline let state: Mutex<State>
    #if DEBUG
    @usableFromInline let handOffs = ThreadHandOffs()
    #endif

    @inlinable init(buffering: BusBuffering) {
        state = Mutex(State(buffering: buffering))
    }

    /// Hands `event` to the waiting consumer, or keeps it for the consumer's next call; dropped once ended, and
    /// past the bound as the policy says.
    ///
    /// A consumer waiting in ``forEach(isolation:sharing:_:)`` whose executor's thread this is takes `event` here,
    /// with no job; it is taken off while it runs, so an event its body publishes back to it waits for its task.
    @inlinable
    func deliver(_ event: Event) {
        let (waiter, inline) = state.withLock { state -> (UnsafeContinuation<Event?, Never>?, InlineConsumer?) in
            guard !state.ended else { return (nil, nil) }
            if let inline = state.inline, inline.isCurrent {
                state.inline = nil
                return (nil, inline)
            }
            guard let waiter = state.waiter else {
                state.keep(event)
                return (nil, nil)
            }
            state.waiter = nil
            state.inline = nil
            return (waiter, nil)
        }
        #if DEBUG
        handOffs.handed()
        #endif
        if let inline {
            #if DEBUG
            handOffs.taken()
            #endif
            inline.body.take(event)
            state.withLock { state in
                if state.waiter != nil, !state.ended { state.inline = inline }
            }
        }
        waiter?.resume(returning: event)
    }

    /// The next event, waiting for it; nil once the queue ended and is empty, or when the consuming task is
    /// cancelled. An event already waiting is returned without suspending.
    @inlinable
    func next(isolation actor: isolated (any Actor)?) async -> Event? {
        if let ready = takeReady() { return ready }
        if Task.isCancelled {
            cancel()
            return nil
        }
        return await withTaskCancellationHandler {
            await wait(isolation: actor)
        } onCancel: {
            self.cancel()
        }
    }

    /// Hands every event to `body` until the queue ends or the consuming task is cancelled, under one cancellation
    /// handler for the whole loop: ``next(isolation:)`` installs one around each wait, and each costs the runtime two
    /// updates of the task's status records under its lock, for a consumer that a live stream resumes every second.
    @inlinable
    func forEach(isolation actor: isolated (any Actor)?, _ body: (Event) -> Void) async {
        await withTaskCancellationHandler(
            operation: {
                while let event = await wait(isolation: actor) { body(event) }
            },
            onCancel: { self.cancel() },
            isolation: actor
        )
    }

    /// ``forEach(isolation:_:)`` for a consumer isolated to `executor` (nil: as ``forEach(isolation:_:)``): while
    /// it waits, an event published on that executor's thread is handed to `body` inside ``deliver(_:)``, with no
    /// task resumed; one published elsewhere (or while `body` runs) resumes the task as before.
    @inlinable
    func forEach(
        isolation actor: isolated (any Actor)?,
        sharing executor: (any SerialExecutor)?,
        _ body: (Event) -> Void
    ) async {
        guard let executor else { return await forEach(isolation: actor, body) }
        await withoutActuallyEscaping(body) { escapable in
            let inline = InlineConsumer(executor: executor, body: InlineBody(escapable))
            await withTaskCancellationHandler(
                operation: {
                    while let event = await wait(isolation: actor, inline: inline) { escapable(event) }
                },
                onCancel: { self.cancel() },
                isolation: actor
            )
            state.withLock { $0.inline = nil }
        }
    }

    /// The next event, waiting for it with no cancellation handler of its own: ``forEach(isolation:_:)``'s one ends
    /// the queue on cancellation, and that resumes this wait with nil. With `inline`, events published on its
    /// executor's thread meanwhile are handed to it, not to this wait.
    @inlinable
    func wait(isolation actor: isolated (any Actor)?, inline: InlineConsumer? = nil) async -> Event? {
        if let ready = takeReady() { return ready }
        let event = await withUnsafeContinuation(isolation: actor) {
            (continuation: UnsafeContinuation<Event?, Never>) in
            let ready = state.withLock { state -> Event?? in
                if let ready = state.take() { return ready }
                if state.waiter != nil { Self.secondReader() }
                state.waiter = continuation
                state.inline = inline
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        #if DEBUG
        if event != nil { handOffs.taken() }
        #endif
        return event
    }

    /// What is queued or the end, without waiting; nil when the consumer must wait.
    @inlinable
    func takeReady() -> Event?? {
        let ready = state.withLock { $0.take() }
        #if DEBUG
        if ready != nil { handOffs.taken() }
        #endif
        return ready
    }

    /// Traps: two tasks waited on one stream, and one of them would have waited forever.
    @usableFromInline
    static func secondReader() -> Never {
        fatalError("a BusStream was read by a second task while another waited on it: a stream has one consumer")
    }

    /// Events dropped so far because the queue was full.
    @inlinable var dropped: Int { state.withLock { $0.dropped } }

    /// Ends the queue after what it holds: the bus finished.
    @inlinable
    func finish() {
        let waiter = state.withLock { state -> UnsafeContinuation<Event?, Never>? in
            state.ended = true
            defer {
                state.waiter = nil
                state.inline = nil
            }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Ends the queue at once and takes the subscription off its bus: its consumer was cancelled or dropped.
    @inlinable
    func cancel() {
        let (waiter, leave) = state.withLock { state -> (UnsafeContinuation<Event?, Never>?, (@Sendable () -> Void)?) in
            state.ended = true
            state.buffer = []
            state.head = 0
            defer {
                state.waiter = nil
                state.inline = nil
                state.leave = nil
            }
            return (state.waiter, state.leave)
        }
        waiter?.resume(returning: nil)
        leave?()
    }

    /// Sets what takes the subscription off its bus when its consumer is cancelled or dropped.
    @inlinable
    func onLeave(_ leave: @escaping @Sendable () -> Void) {
        state.withLock { $0.leave = leave }
    }
}
