import Bus
import Dispatch
import Foundation
import Synchronization

/// How the connection moves to its end: settling the outcome, writing, and waking whoever waits.
extension WebSocketConnection {
    static let cancellation = WebSocketError(.cancelled, "the waiting task was cancelled")

    /// Starts reading; `preamble` (a server's 101 answer) is written before any frame.
    func start(leftover: [UInt8], preamble: [UInt8] = []) {
        if !preamble.isEmpty { writer.async { _ = self.writeNow(preamble) } }
        let thread = Thread { self.readLoop(leftover: leftover) }
        thread.name = "WebSocket reader"
        thread.start()
    }

    /// Records how the connection ends, unless that is already known, and fails every waiting call with it.
    ///
    /// - Parameter closeFrame: Queued when the connection was still open (a close echo or a failure's close).
    /// - Returns: Whether the connection was still open, that is, whether `closeFrame` was queued.
    @discardableResult
    func settle(_ outcome: WebSocketError, closeFrame: [UInt8]? = nil) -> Bool {
        let (wasOpen, receivers, pings, unpark) = state.withLock { state in
            let wasOpen: Bool
            switch state.phase {
            case .open: wasOpen = true
            case .closeSent: wasOpen = false
            case .closing, .closed: return (false, [Waiter<WebSocketMessage>](), [Waiter<Void>](), false)
            }
            state.phase = .closing(outcome)
            if wasOpen, let closeFrame { writer.async { _ = self.writeNow(closeFrame) } }
            defer {
                state.receivers = []
                state.pings = []
            }
            return (wasOpen, state.receivers, state.pings, takeParkedReader(&state))
        }
        for receiver in receivers { receiver.continuation.resume(returning: .failure(outcome)) }
        for ping in pings { ping.continuation.resume(returning: .failure(outcome)) }
        if unpark { readerMayContinue.signal() }
        return wasOpen
    }

    /// Called on the write queue once the reader has finished and the socket is released.
    func markClosed() {
        let observers = state.withLock { state in
            let outcome = state.phase.outcome ?? WebSocketError(.connectionLost, "connection ended")
            state.phase = .closed(outcome)
            defer { state.closeObservers = [] }
            return state.closeObservers
        }
        for observer in observers { observer() }
    }

    /// Un-parks the reader if it is parked; the caller signals ``readerMayContinue`` outside the lock.
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

    /// Writes on the write queue; a failed write drops the connection so the reader ends it.
    func writeNow(_ bytes: [UInt8]) -> Result<Void, WebSocketError> {
        do {
            try socket.sendAll(bytes)
            return .success(())
        } catch {
            socket.interrupt()
            return .failure(error)
        }
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
