import FTWBus
import FTWSocketLoop
import Synchronization

/// How the connection moves to its end: settling the outcome, writing, and waking whoever waits.
extension WebSocketConnection {
    static let cancellation = WebSocketError(.cancelled, "the waiting task was cancelled")

    /// Starts reading; `preamble` (a server's 101 answer) is written before any frame.
    func start(leftover: [UInt8], preamble: [UInt8] = []) {
        if !preamble.isEmpty { state.withLock { _ = queue(.bytes(preamble, nil), in: &$0) } }
        channel.onLoop {
            self.flushOutgoing()
            self.channel.attach(self, leftover: leftover)
        }
    }

    /// Records how the connection ends, unless that is already known, and fails every waiting call with it.
    ///
    /// - Parameter closeFrame: Queued when the connection was still open (a close echo or a failure's close).
    /// - Returns: Whether the connection was still open, that is, whether `closeFrame` was queued.
    @discardableResult
    func settle(_ outcome: WebSocketError, closeFrame: [UInt8]? = nil) -> Bool {
        let (wasOpen, receivers, pings, unpark, mustFlush) = state.withLock { state in
            let wasOpen: Bool
            switch state.phase {
            case .open: wasOpen = true
            case .closeSent: wasOpen = false
            case .closing, .closed: return (false, [Waiter<WebSocketMessage>](), [Waiter<Void>](), false, false)
            }
            state.phase = .closing(outcome)
            let mustFlush = wasOpen && closeFrame != nil ? queue(.bytes(closeFrame ?? [], nil), in: &state) : false
            defer {
                state.receivers = []
                state.inlineReader = nil
                state.pings = []
            }
            let receivers = state.receivers + (state.inlineReader.map { [$0.waiter] } ?? [])
            return (wasOpen, receivers, state.pings, takeParkedReader(&state), mustFlush)
        }
        for receiver in receivers { receiver.continuation.resume(returning: .failure(outcome)) }
        for ping in pings { ping.continuation.resume(returning: .failure(outcome)) }
        if mustFlush { scheduleFlush() }
        if unpark { continueReading() }
        return wasOpen
    }

    /// Called on the loop once the socket is released.
    func markClosed() {
        let observers = state.withLock { state in
            let outcome = state.phase.outcome ?? WebSocketError(.connectionLost, "connection ended")
            state.phase = .closed(outcome)
            defer { state.closeObservers = [] }
            return state.closeObservers
        }
        for observer in observers { observer() }
    }

    /// Un-parks the reader if it is parked; the caller calls ``continueReading()`` outside the lock.
    func takeParkedReader(_ state: inout State) -> Bool {
        defer { state.isReaderParked = false }
        return state.isReaderParked
    }

    /// Whether the connection closed within `timeout` on the connection's clock.
    func waitUntilClosed(within timeout: Duration) async -> Bool {
        let closed = OneShot<Bool>()
        onClosed { closed.fulfil(true) }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { [clock] in
                try? await clock.sleep(for: timeout)
                closed.fulfil(false)
            }
            let result = await closed.value
            group.cancelAll()
            return result
        }
    }

    /// Waits for the socket to be released; only after ``abort()``, which makes that prompt.
    func waitUntilClosed() async {
        let closed = OneShot<Bool>()
        onClosed { closed.fulfil(true) }
        _ = await closed.value
    }

    private func onClosed(_ observer: @escaping @Sendable () -> Void) {
        let alreadyClosed = state.withLock { state -> Bool in
            if case .closed = state.phase { return true }
            state.closeObservers.append(observer)
            return false
        }
        if alreadyClosed { observer() }
    }

    /// Adds `item` to what is to be written; returns whether the caller must schedule a flush (none is queued yet).
    ///
    /// Called under the state's lock, so writes keep the order of the state changes that asked for them.
    func queue(_ item: Outgoing, in state: inout State) -> Bool {
        state.outgoing.append(item)
        guard !state.isFlushScheduled else { return false }
        state.isFlushScheduled = true
        return true
    }

    /// Queues the end of our direction after what is queued.
    func queueFinishWriting() {
        if state.withLock({ queue(.finishWriting, in: &$0) }) { scheduleFlush() }
    }

    /// Writes what is queued, on the loop, after the work queued there now: pongs asked for by the frames of one read
    /// go out as one.
    func scheduleFlush() {
        channel.loop.execute { self.flushOutgoing() }
    }

    /// On the loop: hands what is queued to the socket, in order.
    func flushOutgoing() {
        let items = state.withLock { state -> [Outgoing] in
            state.isFlushScheduled = false
            defer { state.outgoing = [] }
            return state.outgoing
        }
        for item in items {
            switch item {
            case .bytes(let bytes, let completion): channel.write(bytes, completion: completion)
            case .pendingPong: writePendingPong()
            case .finishWriting: channel.finishWriting()
            }
        }
    }

    /// Sends the pong waiting, if the connection is still open.
    private func writePendingPong() {
        let payload = state.withLock { state -> [UInt8]? in
            defer { state.pendingPong = nil }
            guard case .open = state.phase else { return nil }
            return state.pendingPong
        }
        guard let payload else { return }
        channel.write(wireBytes(WebSocketFrame(opcode: .pong, payload: payload)), completion: nil)
    }

    /// `frame` on the wire: masked with a fresh random key from a client, unmasked from a server.
    func wireBytes(_ frame: WebSocketFrame) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let key: UInt32? = role == .client ? generator.next() : nil
        return WebSocketFrameEncoder.encode(frame, maskingKey: key)
    }

    func makeID() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Why a call that needs an open connection cannot go ahead in `phase`.
    static func refusal(_ phase: Phase) -> WebSocketError {
        phase.outcome ?? WebSocketError(.closed, "the connection is closing")
    }

    /// A close frame's payload: the code and as much of `reason` as fits, or nothing for a code not allowed.
    static func closePayload(code: UInt16, reason: String) -> [UInt8] {
        guard WebSocketCloseCode.isAllowedOnWire(code) else { return [] }
        var payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        for character in reason {
            guard payload.count + character.utf8.count <= 125 else { break }
            payload.append(contentsOf: character.utf8)
        }
        return payload
    }

    static func bigEndianBytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}

extension Array {
    /// Removes and returns the first element matching `predicate`, if any.
    mutating func removeFirst(where predicate: (Element) -> Bool) -> Element? {
        firstIndex(where: predicate).map { remove(at: $0) }
    }
}
