import Synchronization

/// The reading side, on the loop's thread: bytes in, frames parsed, events handled, until the conversation ends.
extension WebSocketConnection: ChannelReader {
    /// What reading is doing, touched on the loop's thread only.
    final class Inbound: @unchecked Sendable {
        // @unchecked: only the connection's loop thread reads or writes these (ChannelReader callbacks and work it
        // hands the loop); the connection holds it as a `let`.
        // TODO: fold into SocketChannel's loop-confined state once the language can express loop confinement.
        // Unchecked exclusivity: the loop's thread alone touches these, once or more per frame.
        @exclusivity(unchecked) var parser: WebSocketFrameParser
        @exclusivity(unchecked) var assembler = WebSocketMessageAssembler()
        /// Reading paused because the inbox is full.
        @exclusivity(unchecked) var isPaused = false
        /// The outcome is known: what still arrives is drained, not parsed.
        @exclusivity(unchecked) var isOver = false
        /// The socket is closed and the connection marked closed.
        var isFinished = false
        /// Ends a lingering close that the peer does not end itself.
        var lingerTimer: Task<Void, Never>?

        init(role: WebSocketRole, limits: WebSocketLimits) {
            parser = WebSocketFrameParser(role: role, limits: limits)
        }
    }

    func channelReceived(_ bytes: UnsafeRawBufferPointer) {
        guard !inbound.isOver else { return }
        inbound.parser.append(contentsOf: bytes)
        readFrames()
    }

    func channelEnded(_ error: WebSocketError?) {
        guard !inbound.isOver else { return finishClosing() }
        inbound.isOver = true
        settle(
            error
                ?? WebSocketError(
                    .connectionLost,
                    "TCP ended without a close frame",
                    closeCode: WebSocketCloseCode.abnormalClosure
                )
        )
        finishClosing()
    }

    /// Lets a reader paused on a full inbox go on: from any thread, once the inbox has room or the connection ends.
    func continueReading() {
        channel.onLoop {
            guard self.inbound.isPaused, !self.inbound.isFinished else { return }
            self.inbound.isPaused = false
            self.readFrames()
            if !self.inbound.isPaused, !self.inbound.isOver { self.channel.resumeReading() }
        }
    }

    /// Handles the frames buffered, until more bytes are needed, the inbox is full, or the conversation ends.
    private func readFrames() {
        do {
            while !inbound.isPaused, !inbound.isOver, let frame = try inbound.parser.nextFrame() {
                if let event = try inbound.assembler.consume(frame) { handle(event) }
            }
        } catch {
            fail(error)
        }
        arriving.store(inbound.parser.bufferedDataByteCount + inbound.assembler.pendingByteCount, ordering: .relaxed)
    }

    /// Acts on one event.
    private func handle(_ event: WebSocketEvent) {
        switch event {
        case .message(let message):
            if deliver(message) {
                inbound.isPaused = true
                channel.pauseReading()
            }
        case .ping(let payload):
            if let flood = answerPing(payload) { fail(flood) }
        case .pong(let payload):
            resolvePings(payload)
        case .close(let code, let reason):
            closeReceived(code: code, reason: reason)
        }
    }

    /// Queues a pong unless one already waits (then it only takes the newest payload), so a peer that pings faster
    /// than it reads costs one frame of memory; returns the error to fail with when the peer pings past its budget.
    private func answerPing(_ payload: [UInt8]) -> WebSocketError? {
        let now = elapsed()
        let (failure, mustFlush) = state.withLock { state -> (WebSocketError?, Bool) in
            guard case .open = state.phase else { return (nil, false) }
            if now - state.pingWindowStart >= limits.pingWindow {
                state.pingWindowStart = now
                state.pingsInWindow = 0
            }
            state.pingsInWindow += 1
            guard state.pingsInWindow <= limits.maxPingsPerWindow else {
                let flood = WebSocketError(
                    .policyViolation,
                    "the peer sent more than \(limits.maxPingsPerWindow) pings in \(limits.pingWindow)",
                    closeCode: WebSocketCloseCode.policyViolation
                )
                return (flood, false)
            }
            let isQueued = state.pendingPong != nil
            state.pendingPong = payload
            return (nil, isQueued ? false : queue(.pendingPong, in: &state))
        }
        if mustFlush { scheduleFlush() }
        return failure
    }

    /// Hands `message` to a waiting receiver or the inbox; returns whether the inbox is now full (reading pauses).
    /// An inline reader takes it here, inside the read.
    private func deliver(_ message: WebSocketMessage) -> Bool {
        let (receiver, inline, mustPark) = state.withLock {
            state -> (Waiter<WebSocketMessage>?, (any InlineMessageReader)?, Bool) in
            guard case .open = state.phase else { return (nil, nil, false) }
            if let inline = state.inlineReader { return (nil, inline.reader, false) }
            if !state.receivers.isEmpty { return (state.receivers.removeFirst(), nil, false) }
            state.inbox.append(message)
            guard state.inbox.count >= max(1, limits.maxBufferedMessages) else { return (nil, nil, false) }
            state.isReaderParked = true
            return (nil, nil, true)
        }
        inline?.take(message)
        receiver?.continuation.resume(returning: .success(message))
        return mustPark
    }

    /// Resolves every ping up to the one this pong answers (a pong may answer only the latest of several).
    private func resolvePings(_ payload: [UInt8]) {
        guard payload.count == 8 else { return }
        let answered = payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let resolved = state.withLock { state in
            defer { state.pings.removeAll { $0.id <= answered } }
            return state.pings.filter { $0.id <= answered }
        }
        for ping in resolved { ping.continuation.resume(returning: .success(())) }
    }

    /// Echoes the peer's close if we had not closed, then lets TCP end: a server closes first, a client waits.
    private func closeReceived(code: UInt16?, reason: String) {
        state.withLock { $0.peerClose = (code, reason) }
        let outcome = WebSocketError(
            .closed,
            "the peer closed the connection",
            closeCode: code ?? WebSocketCloseCode.noStatusReceived,
            closeReason: reason
        )
        let echo = code.map { Self.closePayload(code: $0, reason: "") } ?? []
        settle(outcome, closeFrame: wireBytes(WebSocketFrame(opcode: .close, payload: echo)))
        if role == .server { queueFinishWriting() }
        linger()
    }

    /// Fails the connection (RFC 6455 §7.1.7): sends a close with the error's code, then ends TCP.
    private func fail(_ error: WebSocketError) {
        let code = error.closeCode ?? WebSocketCloseCode.protocolError
        let payload = Self.closePayload(code: code, reason: error.message)
        settle(error, closeFrame: wireBytes(WebSocketFrame(opcode: .close, payload: payload)))
        queueFinishWriting()
        linger()
    }

    /// The conversation is over: what the peer still sends is drained until it ends TCP, at most
    /// ``WebSocketLimits/closeTimeout`` on the connection's clock, so our last frame is read rather than reset.
    private func linger() {
        inbound.isOver = true
        inbound.isPaused = false
        inbound.lingerTimer = Task(executorPreference: channel.loop) { [clock, limits, weak self] in
            guard (try? await clock.sleep(for: limits.closeTimeout)) != nil, let self else { return }
            channel.onLoop { self.finishClosing() }
        }
        channel.discardInput { [self] in finishClosing() }
    }

    /// On the loop: writes what is queued, releases the socket and marks the connection closed, once.
    func finishClosing() {
        guard !inbound.isFinished else { return }
        inbound.isOver = true
        inbound.isFinished = true
        inbound.lingerTimer?.cancel()
        inbound.lingerTimer = nil
        flushOutgoing()
        channel.close()
        markClosed()
    }
}
