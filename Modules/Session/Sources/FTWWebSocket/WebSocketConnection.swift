import Synchronization

/// One open WebSocket, client or server side: send and receive whole messages, ping, and close.
///
/// Pings are answered automatically (at most one pong waits to be written, carrying the newest ping's payload; a
/// peer sending more than ``WebSocketLimits/maxPingsPerWindow`` pings in a window is closed with 1008) and the closing handshake of RFC 6455 §7 is followed (a peer's close is echoed,
/// then TCP is closed). However the connection ends, ``receive()`` first hands out messages already received and
/// then throws the outcome: ``WebSocketError/Code/closed`` with the peer's code and reason, a protocol error with
/// the code that was sent, or ``WebSocketError/Code/connectionLost`` (1006) when TCP dropped.
///
/// ## Concurrency
/// No thread is the connection's. Its socket lives on an event loop, whose thread parses frames as they arrive,
/// answers pings, and hands messages to waiting ``receive()`` calls (a task that prefers that loop resumes on the
/// thread that read the frame) or to an inbox of at most ``WebSocketLimits/maxBufferedMessages`` (when full, reading
/// pauses, so TCP flow control reaches the peer). Writes, from any thread, join one ordered queue under the state's
/// lock and are written on the loop, so frames never interleave. Everything else is one `State` behind a `Mutex`;
/// continuations are resumed outside the lock.
public final class WebSocketConnection: Sendable {
    struct Waiter<Value: Sendable>: Sendable {
        let id: UInt64
        /// Unchecked: a waiter is resumed only by whoever takes it out of the state under the lock, so exactly once;
        /// a checked one would allocate for every message received.
        let continuation: UnsafeContinuation<Result<Value, WebSocketError>, Never>
    }

    /// A reader that takes messages inside the loop's read, and waits for the connection's outcome.
    struct InlineReader: Sendable {
        let waiter: Waiter<WebSocketMessage>
        let reader: any InlineMessageReader
    }

    enum Phase {
        /// Messages flow both ways. Moves to `closeSent` on ``close(code:reason:)``, to `closing` otherwise.
        case open
        /// Our close frame is queued; nothing more is sent and later data is dropped. Moves to `closing`.
        case closeSent
        /// The outcome is known and TCP is winding down. Moves to `closed` when the reader has finished.
        case closing(WebSocketError)
        /// The reader has finished and the socket is released. Final.
        case closed(WebSocketError)

        var outcome: WebSocketError? {
            switch self {
            case .open, .closeSent: nil
            case .closing(let outcome), .closed(let outcome): outcome
            }
        }
    }

    /// Something to write, in the order it was asked for.
    enum Outgoing {
        /// A frame (or the 101 answer), and who waits for it to be written.
        case bytes([UInt8], SocketChannel.Completion?)
        /// The pong for the newest ping, read when it is written.
        case pendingPong
        /// The end of our direction (after TLS's close_notify).
        case finishWriting
    }

    struct State {
        var phase = Phase.open
        var inbox: [WebSocketMessage] = []
        var receivers: [Waiter<WebSocketMessage>] = []
        /// The reader that takes each message inside the loop's read (``receiveInline(isolation:_:)``), if one waits.
        var inlineReader: InlineReader?
        var pings: [Waiter<Void>] = []
        var closeObservers: [@Sendable () -> Void] = []
        var peerClose: (code: UInt16?, reason: String)?
        /// Reading paused because the inbox is full; a ``receive()`` that makes room lets it go on.
        var isReaderParked = false
        /// What is to be written, in the order it was asked for; the loop takes it.
        var outgoing: [Outgoing] = []
        /// A flush of ``outgoing`` is queued on the loop.
        var isFlushScheduled = false
        var nextID: UInt64 = 0
        /// The payload of the one pong waiting for the write queue: a later ping replaces it (RFC 6455 §5.5.3).
        var pendingPong: [UInt8]?
        /// When the current ping window began, on ``elapsed``.
        var pingWindowStart = Duration.zero
        /// Pings received in the current window.
        var pingsInWindow = 0
    }

    /// Which end of the connection this is.
    public let role: WebSocketRole
    let limits: WebSocketLimits
    let clock: any Clock<Duration>
    /// Time since the connection was made, on ``clock``: the ping window runs on it.
    let elapsed: @Sendable () -> Duration
    let channel: SocketChannel
    let state = Mutex(State())
    /// What ``arrivingByteCount`` reads: set on the loop's thread after the bytes of each read are parsed.
    let arriving = Atomic(0)
    /// The parser and what reading is doing, touched on the loop's thread only.
    let inbound: Inbound

    init(channel: SocketChannel, role: WebSocketRole, limits: WebSocketLimits, clock: any Clock<Duration>) {
        self.channel = channel
        self.role = role
        self.limits = limits
        self.clock = clock
        elapsed = Self.stopwatch(clock)
        inbound = Inbound(role: role, limits: limits)
    }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    /// The close code of the connection: the peer's code, 1005 if its close frame had none, 1006 if the connection
    /// ended without a close frame from the peer; nil while no close has been seen.
    public var closeCode: UInt16? {
        state.withLock { state in
            if let peerClose = state.peerClose { return peerClose.code ?? WebSocketCloseCode.noStatusReceived }
            if case .closed = state.phase { return WebSocketCloseCode.abnormalClosure }
            return nil
        }
    }

    /// The bytes of a message that has begun to arrive and is not whole yet (pings not counted): on a link that
    /// trickles, the proof that an answer is on its way, though no message has come out of ``receive()``.
    public var arrivingByteCount: Int { arriving.load(ordering: .relaxed) }

    /// The reason the peer gave in its close frame (the relay's 4409 and 4410 carry the epoch here).
    public var closeReason: String? { state.withLock { $0.peerClose?.reason } }

    /// Sends `message`, split into frames of at most ``WebSocketLimits/maxOutgoingFrameSize`` bytes.
    ///
    /// - Throws: ``WebSocketError`` when the connection is closing or closed, or the write fails.
    public func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        let frames = WebSocketFrameEncoder.frames(of: message, maxFrameSize: limits.maxOutgoingFrameSize)
        let bytes = frames.flatMap(wireBytes)
        let failure = await withCheckedContinuation { continuation in
            let (refusal, mustFlush) = state.withLock { state -> (WebSocketError?, Bool) in
                guard case .open = state.phase else { return (Self.refusal(state.phase), false) }
                return (nil, queue(.bytes(bytes, { continuation.resume(returning: $0) }), in: &state))
            }
            if let refusal { continuation.resume(returning: refusal) }
            if mustFlush { scheduleFlush() }
        }
        if let failure { throw failure }
    }

    /// The next message, waiting for one if none has arrived.
    ///
    /// - Throws: The connection's outcome once it has ended and every received message was handed out, or
    ///   ``WebSocketError/Code/cancelled`` if the task is cancelled while waiting (no message is lost).
    public func receive() async throws(WebSocketError) -> WebSocketMessage {
        let id = makeID()
        let result = await withTaskCancellationHandler {
            await awaitMessage(id: id)
        } onCancel: {
            let waiter = state.withLock { state in state.receivers.removeFirst { $0.id == id } }
            waiter?.continuation.resume(returning: .failure(Self.cancellation))
        }
        return try result.get()
    }

    /// ``receive()`` for a reading loop that handles cancellation once for all its calls (``cancelReceivers()`` in
    /// its handler), on the loop's caller's isolation: a receive of its own installs a cancellation handler each
    /// time, and each costs the runtime two updates of the task's status records under its lock.
    ///
    /// - Throws: As ``receive()``; ``WebSocketError/Code/cancelled`` once the task is cancelled.
    package func receiveInLoop(
        isolation actor: isolated (any Actor)?
    ) async throws(WebSocketError) -> WebSocketMessage {
        try await awaitMessage(id: makeID(), isolation: actor).get()
    }

    /// ``receiveInLoop(isolation:)`` for a reader whose isolation is the loop's own thread (an actor on the loop's
    /// serial executor): every message is handed to `reader` inside the loop's read that parsed it, on the loop's
    /// thread, with no task resumed; the next message is parsed once it returns, so a slow reader holds the flood
    /// in TCP. Returns a message that was already waiting (`reader` was not installed; call again).
    ///
    /// - Important: `reader` is called outside any job of the loop's, so it must be isolated to the loop by its
    ///   thread (``runsReads(on:)``); it must not block.
    /// - Throws: The connection's outcome once it has ended (every message before it was taken), or
    ///   ``WebSocketError/Code/cancelled`` after ``cancelReceivers()``.
    package func receiveInline(
        isolation actor: isolated (any Actor)?,
        _ reader: any InlineMessageReader
    ) async throws(WebSocketError) -> WebSocketMessage {
        try await awaitMessage(id: makeID(), inline: reader, isolation: actor).get()
    }

    /// Whether the reads of this connection run on `executor`'s thread: the loop this connection's socket is on.
    package func runsReads(on executor: (any SerialExecutor)?) -> Bool {
        guard let executor else { return false }
        return executor === channel.loop
    }

    /// Fails every waiting ``receiveInLoop(isolation:)`` and ``receiveInline(isolation:_:)`` with
    /// ``WebSocketError/Code/cancelled``: its task was cancelled. A later call sees the cancellation itself.
    package func cancelReceivers() {
        let waiters = state.withLock { state in
            defer {
                state.receivers.removeAll()
                state.inlineReader = nil
            }
            return state.receivers + (state.inlineReader.map { [$0.waiter] } ?? [])
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(Self.cancellation)) }
    }

    /// How many receives wait for a message now.
    package var waitingReceivers: Int { state.withLock { $0.receivers.count + ($0.inlineReader == nil ? 0 : 1) } }

    /// The next message or the outcome, waiting for it as the receiver `id`; with `inline`, messages are handed to
    /// it as they are read, until the outcome.
    private func awaitMessage(
        id: UInt64,
        inline: (any InlineMessageReader)? = nil,
        isolation actor: isolated (any Actor)? = #isolation
    ) async -> Result<WebSocketMessage, WebSocketError> {
        await withUnsafeContinuation(isolation: actor) { continuation in
            let (immediate, unpark) = state.withLock { state -> (Result<WebSocketMessage, WebSocketError>?, Bool) in
                if !state.inbox.isEmpty {
                    let unpark = state.isReaderParked
                    state.isReaderParked = false
                    return (.success(state.inbox.removeFirst()), unpark)
                }
                if let outcome = state.phase.outcome { return (.failure(outcome), false) }
                if Task.isCancelled { return (.failure(Self.cancellation), false) }
                let waiter = Waiter(id: id, continuation: continuation)
                if let inline {
                    state.inlineReader = InlineReader(waiter: waiter, reader: inline)
                } else {
                    state.receivers.append(waiter)
                }
                return (nil, false)
            }
            if unpark { continueReading() }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Sends a ping and waits for the pong that answers it (or a later one).
    ///
    /// - Throws: ``WebSocketError`` when the connection ends first, or ``WebSocketError/Code/cancelled``.
    public func ping() async throws(WebSocketError) {
        let id = makeID()
        let frame = wireBytes(WebSocketFrame(opcode: .ping, payload: Self.bigEndianBytes(id)))
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let (refusal, mustFlush) = state.withLock { state -> (WebSocketError?, Bool) in
                    guard case .open = state.phase else { return (Self.refusal(state.phase), false) }
                    if Task.isCancelled { return (Self.cancellation, false) }
                    state.pings.append(Waiter(id: id, continuation: continuation))
                    return (nil, queue(.bytes(frame, nil), in: &state))
                }
                if let refusal { continuation.resume(returning: .failure(refusal)) }
                if mustFlush { scheduleFlush() }
            }
        } onCancel: {
            let waiter = state.withLock { state in state.pings.removeFirst { $0.id == id } }
            waiter?.continuation.resume(returning: .failure(Self.cancellation))
        }
        try result.get()
    }

    /// Starts (or joins) the closing handshake and returns once TCP is closed.
    ///
    /// Waits at most ``WebSocketLimits/closeTimeout`` for the peer's close, then drops the connection (at once if
    /// the calling task is cancelled). Messages that arrive after the close frame was sent are discarded.
    /// - Parameters:
    ///   - code: The close code to send; a code not allowed on the wire (``WebSocketCloseCode/isAllowedOnWire(_:)``)
    ///     sends an empty close frame instead, which the peer reports as 1005.
    ///   - reason: Why, in UTF-8; cut at a character boundary to fit the 123 bytes a close frame allows.
    public func close(code: UInt16 = WebSocketCloseCode.normalClosure, reason: String = "") async {
        let frame = wireBytes(WebSocketFrame(opcode: .close, payload: Self.closePayload(code: code, reason: reason)))
        let (unpark, mustFlush) = state.withLock { state -> (Bool, Bool) in
            guard case .open = state.phase else { return (false, false) }
            state.phase = .closeSent
            return (takeParkedReader(&state), queue(.bytes(frame, nil), in: &state))
        }
        if mustFlush { scheduleFlush() }
        if unpark { continueReading() }
        if await waitUntilClosed(within: limits.closeTimeout) { return }
        abort()
        await waitUntilClosed()
    }

    /// Drops TCP at once, without a closing handshake; the peer sees 1006.
    ///
    /// For a connection that has gone quiet: the reader wakes, waiting calls throw
    /// ``WebSocketError/Code/connectionLost``, and the socket is released.
    public func abort() {
        settle(
            WebSocketError(.connectionLost, "connection aborted locally", closeCode: WebSocketCloseCode.abnormalClosure)
        )
        channel.onLoop { self.finishClosing() }
    }
}
