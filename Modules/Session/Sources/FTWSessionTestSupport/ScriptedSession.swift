public import FTWBoxProtocol
public import FTWBus
public import FTWClockSeam
public import FTWSessionInterface

/// A `BoxSession` that answers from a script, for testing the models without a wire.
///
/// It obeys the contract of `BoxSession` (the suite `SessionContractTests` runs the live session's tests against
/// it): it records every read it is asked (the request frames a real session would send) and answers each from
/// ``answer``. A test moves it through the phases a live session goes through: in front with no stream (as made,
/// or after ``drop()`` or ``comeToFront()``: reads wait), streaming (``connect(hello:)``: waiting reads leave in
/// `ReadOrder`; or ``open(hello:)`` then ``sendReads()``, the live session's order with the display frame between)
/// and the background (``background()``: waiting reads fail, new ones fail at once). It can hold
/// answers back to look at what is in flight, and push events. Equal reads pending at the same time share one
/// request, as the live slot does.
public actor ScriptedSession: BoxSession {
    /// One read the session was asked to send.
    public struct SentRead: Sendable, Hashable {
        /// What was asked.
        public var request: ReadRequest
        /// Its place in the read order.
        public var order: ReadOrder
        /// When it went out, on the wall clock (Unix ms).
        public var atMs: Int64
    }

    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<Result<ReadAnswer, SessionError>, Never>
        var onChunk: (@Sendable (HistChunk) -> Void)?
    }

    private struct Pending {
        var request: ReadRequest
        var order: ReadOrder
        var arrival: Int
        var waiters: [Waiter]
        var sent: Bool
    }

    /// The bus the session publishes on.
    public nonisolated let events: EventBus<SessionEvent>

    /// Answers a read; the default refuses everything with `E_UNKNOWN_OP`.
    public var answer: @Sendable (ReadRequest) -> Result<ReadAnswer, SessionError>

    /// Every read sent, in order.
    public private(set) var sent: [SentRead] = []

    private let wallClock: any WallClock
    private var pending: [Pending] = []
    private var connected: HelloOK?
    private var inBackground = false
    private var holding = false
    /// The stream is up but reads do not leave yet: the live slot's display frame (``open(hello:)``).
    private var readsWait = false
    private var connection = 0
    private var nextID = 0

    /// The number of the current (or last) connection.
    public var connectionNumber: Int { connection }

    /// Makes a scripted session in front with no stream up: reads wait for ``connect(hello:)``.
    public init(wallClock: any WallClock, events: EventBus<SessionEvent> = EventBus()) {
        self.wallClock = wallClock
        self.events = events
        self.answer = { _ in
            .failure(
                SessionError(
                    .box,
                    "no answer scripted",
                    box: ErrorBody(code: .unknownOp)
                )
            )
        }
    }

    /// Replaces the script that answers reads.
    public func setAnswer(_ answer: @escaping @Sendable (ReadRequest) -> Result<ReadAnswer, SessionError>) {
        self.answer = answer
    }

    /// Holds answers back (reads are still recorded as sent) until ``release()``.
    public func hold() { holding = true }

    /// Answers every held read and stops holding.
    public func release() {
        holding = false
        settleSent()
    }

    /// The reads sent and not yet answered.
    public var inFlight: [ReadRequest] { pending.filter(\.sent).map(\.request) }

    /// Brings a stream up (in front): publishes the connection and `streamReturned`, then sends every waiting read
    /// in `ReadOrder`.
    public func connect(hello: HelloOK) {
        streamUp(hello, firstFrame: false)
        sendReads()
    }

    /// Brings a stream up as the live session does before any read leaves: publishes the connection, its first live
    /// frame and then `streamReturned` (the live session's order), while every read, waiting or asked now, stays
    /// queued until ``sendReads()``, as reads wait for the live slot's display frame. What a model asks in that moment
    /// is queued beside the rest, so a person's read can be seen to join a queued one and leave first.
    public func open(hello: HelloOK) {
        streamUp(hello, firstFrame: true)
    }

    /// The display frame after ``open(hello:)`` ended: every waiting read leaves in `ReadOrder` and is answered
    /// unless answers are held.
    public func sendReads() {
        guard connected != nil else { return }
        readsWait = false
        sendWaiting()
        if !holding { settleSent() }
    }

    /// A new connection streams, with its first live frame if `firstFrame`, and returns; reads wait until
    /// ``sendReads()``.
    private func streamUp(_ hello: HelloOK, firstFrame: Bool) {
        inBackground = false
        readsWait = true
        connected = hello
        connection += 1
        events.publish(.connection(.streaming(hello)))
        if firstFrame { beat() }
        events.publish(.streamReturned(connection: connection))
    }

    /// Drops the stream in front (a lost carrier, before the redial): every read on the wire fails with
    /// `.carrierLost`; reads not yet sent keep waiting.
    public func drop() {
        connected = nil
        readsWait = false
        fail(pending.filter(\.sent), "the scripted carrier dropped")
        pending.removeAll(where: \.sent)
        events.publish(.streamLost(reason: "dropped"))
    }

    /// The app goes to the background: the stream closes, every read on the wire or waiting fails with
    /// `.carrierLost`, and every read asked until the next ``comeToFront()`` or ``connect(hello:)`` fails at once.
    public func background() {
        let wasStreaming = connected != nil
        connected = nil
        readsWait = false
        inBackground = true
        fail(pending, "the app went to the background")
        pending.removeAll()
        if wasStreaming {
            events.publish(.streamLost(reason: "background"))
            events.publish(.connection(.closed(reason: SessionError(.cancelled, "background"))))
        }
        events.publish(.connection(.idle))
    }

    /// The app comes back to the front and the stream is not up yet (dialling): reads wait again.
    public func comeToFront() {
        inBackground = false
    }

    /// Publishes `event` as if the session had.
    public func publish(_ event: SessionEvent) { events.publish(event) }

    public func readAnswer(
        _ request: ReadRequest,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)?
    ) async throws(SessionError) -> ReadAnswer {
        nextID += 1
        let id = nextID
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                enqueue(request, order: order, waiter: Waiter(id: id, continuation: continuation, onChunk: onChunk))
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
        return try result.get()
    }

    public func command(_ request: CommandRequest) async throws(SessionError) -> CommandOutcome {
        guard connected != nil else { throw SessionError(.carrierLost, "no scripted session is up") }
        return CommandOutcome(state: "applied")
    }

    public func hello() async -> HelloOK? { connected }

    private func enqueue(_ request: ReadRequest, order: ReadOrder, waiter: Waiter) {
        if Task.isCancelled {
            waiter.continuation.resume(returning: .failure(SessionError(.cancelled, "the caller went away")))
            return
        }
        if inBackground {
            waiter.continuation.resume(
                returning: .failure(SessionError(.carrierLost, "the app is in the background"))
            )
            return
        }
        if let index = pending.firstIndex(where: { $0.request == request }) {
            pending[index].waiters.append(waiter)
            if !pending[index].sent { pending[index].order = min(pending[index].order, order) }
            return
        }
        nextID += 1
        pending.append(Pending(request: request, order: order, arrival: nextID, waiters: [waiter], sent: false))
        if connected != nil, !readsWait {
            sendWaiting()
            if !holding { settleSent() }
        }
    }

    /// A caller went away: it fails with `.cancelled`; a waiting read nobody waits for any more is dropped.
    private func cancel(_ id: Int) {
        for index in pending.indices {
            guard let at = pending[index].waiters.firstIndex(where: { $0.id == id }) else { continue }
            let waiter = pending[index].waiters.remove(at: at)
            waiter.continuation.resume(returning: .failure(SessionError(.cancelled, "the caller went away")))
        }
        pending.removeAll { !$0.sent && $0.waiters.isEmpty }
    }

    private func fail(_ reads: [Pending], _ reason: String) {
        for read in reads {
            for waiter in read.waiters {
                waiter.continuation.resume(returning: .failure(SessionError(.carrierLost, reason)))
            }
        }
    }

    private func sendWaiting() {
        let waiting = pending.indices.filter { !pending[$0].sent }
            .sorted { (pending[$0].order, pending[$0].arrival) < (pending[$1].order, pending[$1].arrival) }
        for index in waiting {
            pending[index].sent = true
            sent.append(SentRead(request: pending[index].request, order: pending[index].order, atMs: wallClock.nowMs))
        }
    }

    private func settleSent() {
        let ready = pending.filter(\.sent)
        pending.removeAll(where: \.sent)
        for read in ready {
            let result = answer(read.request)
            if case .success(.history(let history)) = result {
                for chunk in history.chunks { for waiter in read.waiters { waiter.onChunk?(chunk) } }
            }
            for waiter in read.waiters { waiter.continuation.resume(returning: result) }
        }
    }
}

extension ScriptedSession {
    /// Publishes one live tick, as the box's 1 Hz stream would: the beat on which an open view re-checks its name.
    public func beat(uptimeMs: Int64 = 0) {
        events.publish(
            .telemetry(
                TelemetryFrame(
                    connection: max(1, connectionNumber),
                    arrivalMs: wallClock.nowMs,
                    message: .tick(Tick(seq: 0, uptimeMs: uptimeMs))
                )
            )
        )
    }
}
