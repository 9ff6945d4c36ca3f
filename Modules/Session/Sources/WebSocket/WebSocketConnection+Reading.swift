import Dispatch
import Synchronization

/// The reader thread: frames in, events out, until the conversation ends.
extension WebSocketConnection {
    func readLoop(leftover: [UInt8]) {
        var parser = WebSocketFrameParser(role: role, limits: limits)
        parser.append(contentsOf: leftover)
        let outcome = converse(&parser)
        settle(outcome)
        // The closing exchange is over (or given up), so a write still blocked on a silent peer may fail now.
        socket.interrupt()
        writer.async {
            self.socket.dispose()
            self.markClosed()
        }
    }

    /// Reads and handles frames until the connection's outcome is known, and returns it.
    private func converse(_ parser: inout WebSocketFrameParser) -> WebSocketError {
        var assembler = WebSocketMessageAssembler()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            do {
                while let frame = try parser.nextFrame() {
                    if let event = try assembler.consume(frame), let outcome = handle(event) { return outcome }
                }
            } catch {
                return fail(error)
            }
            arriving.store(parser.bufferedDataByteCount + assembler.pendingByteCount, ordering: .relaxed)
            let count: Int
            do {
                count = try socket.receive(into: &buffer)
            } catch {
                return error
            }
            guard count > 0 else {
                return WebSocketError(
                    .connectionLost,
                    "TCP ended without a close frame",
                    closeCode: WebSocketCloseCode.abnormalClosure
                )
            }
            parser.append(contentsOf: buffer[..<count])
        }
    }

    /// Acts on one event; returns the outcome when it ends the conversation.
    private func handle(_ event: WebSocketEvent) -> WebSocketError? {
        switch event {
        case .message(let message):
            deliver(message)
        case .ping(let payload):
            if let flood = answerPing(payload) { return fail(flood) }
        case .pong(let payload):
            resolvePings(payload)
        case .close(let code, let reason):
            return closeReceived(code: code, reason: reason)
        }
        return nil
    }

    /// Queues a pong unless one already waits (then it only takes the newest payload), so a peer that pings faster
    /// than it reads costs one frame of memory; returns the error to fail with when the peer pings past its budget.
    private func answerPing(_ payload: [UInt8]) -> WebSocketError? {
        let now = elapsed()
        return state.withLock { state -> WebSocketError? in
            guard case .open = state.phase else { return nil }
            if now - state.pingWindowStart >= limits.pingWindow {
                state.pingWindowStart = now
                state.pingsInWindow = 0
            }
            state.pingsInWindow += 1
            guard state.pingsInWindow <= limits.maxPingsPerWindow else {
                return WebSocketError(
                    .policyViolation,
                    "the peer sent more than \(limits.maxPingsPerWindow) pings in \(limits.pingWindow)",
                    closeCode: WebSocketCloseCode.policyViolation
                )
            }
            let isQueued = state.pendingPong != nil
            state.pendingPong = payload
            if !isQueued { writer.async { self.writePendingPong() } }
            return nil
        }
    }

    /// On the write queue: sends the pong waiting, if the connection is still open.
    private func writePendingPong() {
        let payload = state.withLock { state -> [UInt8]? in
            defer { state.pendingPong = nil }
            guard case .open = state.phase else { return nil }
            return state.pendingPong
        }
        guard let payload else { return }
        _ = writeNow(wireBytes(WebSocketFrame(opcode: .pong, payload: payload)))
    }

    /// Hands `message` to a waiting receiver or the inbox, parking this thread while the inbox is full.
    private func deliver(_ message: WebSocketMessage) {
        let (receiver, mustPark) = state.withLock { state -> (Waiter<WebSocketMessage>?, Bool) in
            guard case .open = state.phase else { return (nil, false) }
            if !state.receivers.isEmpty { return (state.receivers.removeFirst(), false) }
            state.inbox.append(message)
            guard state.inbox.count >= max(1, limits.maxBufferedMessages) else { return (nil, false) }
            state.isReaderParked = true
            return (nil, true)
        }
        receiver?.continuation.resume(returning: .success(message))
        if mustPark { readerMayContinue.wait() }
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
    private func closeReceived(code: UInt16?, reason: String) -> WebSocketError {
        state.withLock { $0.peerClose = (code, reason) }
        let outcome = WebSocketError(
            .closed,
            "the peer closed the connection",
            closeCode: code ?? WebSocketCloseCode.noStatusReceived,
            closeReason: reason
        )
        let echo = code.map { Self.closePayload(code: $0, reason: "") } ?? []
        settle(outcome, closeFrame: wireBytes(WebSocketFrame(opcode: .close, payload: echo)))
        if role == .server { writer.async { self.socket.finishWriting() } }
        socket.drain(timeout: limits.closeTimeout)
        return outcome
    }

    /// Fails the connection (RFC 6455 §7.1.7): sends a close with the error's code, then ends TCP.
    private func fail(_ error: WebSocketError) -> WebSocketError {
        let code = error.closeCode ?? WebSocketCloseCode.protocolError
        let payload = Self.closePayload(code: code, reason: error.message)
        settle(error, closeFrame: wireBytes(WebSocketFrame(opcode: .close, payload: payload)))
        writer.async { self.socket.finishWriting() }
        socket.drain(timeout: limits.closeTimeout)
        return error
    }
}
