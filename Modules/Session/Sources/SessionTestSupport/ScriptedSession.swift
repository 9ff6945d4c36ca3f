public import BoxProtocol
public import Bus
public import ClockSeam
public import SessionInterface

/// A `BoxSession` that answers from a script, for testing the models without a wire.
///
/// It records every read it is asked (the request frames a real session would send), answers each from
/// ``answer``, and lets a test hold answers back to look at what is in flight, connect and drop the stream, and
/// push events. Reads asked while disconnected wait for the next ``connect(hello:)``, as the live session's queue
/// does; equal reads pending at the same time share one request, as the live slot does.
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

    private struct Pending {
        var request: ReadRequest
        var order: ReadOrder
        var waiters: [CheckedContinuation<ReadAnswer, any Error>]
        var chunkSinks: [@Sendable (HistChunk) -> Void]
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
    private var holding = false
    private var connection = 0

    /// The number of the current (or last) connection.
    public var connectionNumber: Int { connection }

    /// Makes a disconnected scripted session.
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

    /// Brings a stream up: publishes the connection and `streamReturned`, then sends every waiting read.
    public func connect(hello: HelloOK) {
        connected = hello
        connection += 1
        events.publish(.connection(.streaming(hello)))
        events.publish(.streamReturned(connection: connection))
        sendWaiting()
        if !holding { settleSent() }
    }

    /// Drops the stream: every read on the wire fails with `.carrierLost`; reads not yet sent keep waiting.
    public func drop() {
        connected = nil
        let lost = pending.filter(\.sent)
        pending.removeAll(where: \.sent)
        for read in lost {
            for waiter in read.waiters {
                waiter.resume(throwing: SessionError(.carrierLost, "the scripted carrier dropped"))
            }
        }
        events.publish(.streamLost(reason: "dropped"))
    }

    /// Publishes `event` as if the session had.
    public func publish(_ event: SessionEvent) { events.publish(event) }

    public func read(
        _ request: ReadRequest,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)?
    ) async throws(SessionError) -> ReadAnswer {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                enqueue(request, order: order, onChunk: onChunk, continuation: continuation)
            }
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError(.cancelled, "\(error)")
        }
    }

    public func command(_ request: CommandRequest) async throws(SessionError) -> CommandOutcome {
        guard connected != nil else { throw SessionError(.carrierLost, "no scripted session is up") }
        return CommandOutcome(state: "applied")
    }

    public func hello() async -> HelloOK? { connected }

    private func enqueue(
        _ request: ReadRequest,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)?,
        continuation: CheckedContinuation<ReadAnswer, any Error>
    ) {
        if let index = pending.firstIndex(where: { $0.request == request }) {
            pending[index].waiters.append(continuation)
            pending[index].order = min(pending[index].order, order)
            if let onChunk { pending[index].chunkSinks.append(onChunk) }
            return
        }
        pending.append(
            Pending(
                request: request,
                order: order,
                waiters: [continuation],
                chunkSinks: onChunk.map { [$0] } ?? [],
                sent: false
            )
        )
        if connected != nil {
            sendWaiting()
            if !holding { settleSent() }
        }
    }

    private func sendWaiting() {
        let waiting = pending.indices.filter { !pending[$0].sent }.sorted { pending[$0].order < pending[$1].order }
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
                for chunk in history.chunks { for sink in read.chunkSinks { sink(chunk) } }
            }
            for waiter in read.waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
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
