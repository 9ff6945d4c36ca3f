import FTWBus
import FTWSessionInterface
import FTWWebSocket
import Synchronization

/// One WebSocket to a relay room, as a `Carrier`: text messages are the relay's control words, binary messages are
/// Noise messages, and the socket's end is `.closed` with the relay's code and reason.
///
/// Reading is driven by whoever iterates ``incoming`` (the session's reader), so the carrier starts no task of its
/// own. A 4409 or 4410 close is reported to the dialer that made the carrier, which adopts the announced epoch.
final class RelayCarrier: Carrier {
    /// Set once the socket's end has been reported, so it is reported once.
    private final class Ended: Sendable {
        let value = Mutex(false)
    }

    let incoming: AsyncStream<CarrierEvent>
    private let connection: WebSocketConnection
    private let ended = Ended()
    private let onClose: @Sendable (Int, String) -> Void

    /// Wraps an open connection.
    ///
    /// - Parameters:
    ///   - connection: The WebSocket, already upgraded.
    ///   - onClose: Told the close code and reason when the relay (or the network) ends the socket.
    init(connection: WebSocketConnection, onClose: @escaping @Sendable (Int, String) -> Void) {
        self.connection = connection
        self.onClose = onClose
        let ended = ended
        incoming = AsyncStream<CarrierEvent>(unfolding: {
            guard !ended.value.withLock({ $0 }) else { return nil }
            do throws(WebSocketError) {
                return Self.event(try await connection.receive())
            } catch {
                return Self.end(error, ended: ended, onClose: onClose)
            }
        })
    }

    /// Hands every event to `body` on `actor` until the socket's end (told as `.closed`) or the task's cancellation,
    /// as ``incoming`` gives them: the session's reader, which every live frame resumes, without the stream's
    /// nonisolated step (a hop off the session and back on every frame) and with one cancellation handler for the
    /// whole loop.
    ///
    /// When `actor` runs on the thread of the loop that reads the socket (`executor` is that loop), each message is
    /// handed to `body` inside the loop's read that parsed it, with no job at all: a live frame resumes no task,
    /// and another phone's frame is refused there. The socket's end still comes back through the task.
    func forEachEvent(
        isolation actor: isolated (any Actor)?,
        executor: (any SerialExecutor)?,
        _ body: @escaping (CarrierEvent) -> Void
    ) async {
        let inline = connection.runsReads(on: executor) ? actor.map { InlineReader(actor: $0, body: body) } : nil
        await withTaskCancellationHandler(
            operation: {
                while !ended.value.withLock({ $0 }) {
                    do throws(WebSocketError) {
                        let message =
                            if let inline {
                                try await connection.receiveInline(isolation: actor, inline)
                            } else {
                                try await connection.receiveInLoop(isolation: actor)
                            }
                        body(Self.event(message))
                    } catch {
                        guard let end = Self.end(error, ended: ended, onClose: onClose) else { return }
                        body(end)
                    }
                }
            },
            onCancel: { [connection] in connection.cancelReceivers() },
            isolation: actor
        )
    }

    /// The reader's body, called inside the loop's read: `actor` runs on the loop, whose thread is the read's, and
    /// nothing else runs there meanwhile (the loop reads between jobs), so the call is isolated to it as a job on
    /// the actor would be.
    private final class InlineReader: InlineMessageReader, @unchecked Sendable {
        // @unchecked: `body` is called only by the connection, on its loop's thread, which `actor` shares (checked
        // when the reader is made, and again in debug builds at each call).
        let actor: any Actor
        let body: (CarrierEvent) -> Void

        init(actor: any Actor, body: @escaping (CarrierEvent) -> Void) {
            self.actor = actor
            self.body = body
        }

        func take(_ message: WebSocketMessage) {
            #if DEBUG
            actor.preconditionIsolated("a message read off the loop its reader runs on")
            #endif
            body(RelayCarrier.event(message))
        }
    }

    /// A message as the session sees it: the relay's control words in text, Noise messages in binary.
    fileprivate static func event(_ message: WebSocketMessage) -> CarrierEvent {
        switch message {
        case .text(let word): .control(word)
        case .binary(let bytes): .binary(bytes)
        }
    }

    /// The socket's end as the session sees it, reported once; nil when the reader was cancelled.
    private static func end(
        _ error: WebSocketError,
        ended: Ended,
        onClose: @Sendable (Int, String) -> Void
    ) -> CarrierEvent? {
        if error.code == .cancelled { return nil }
        ended.value.withLock { $0 = true }
        let code = Int(error.closeCode ?? WebSocketCloseCode.abnormalClosure)
        let reason = error.closeReason ?? error.message
        onClose(code, reason)
        return .closed(code: code, reason: reason)
    }

    func send(_ message: [UInt8]) async throws(SessionError) {
        do {
            try await connection.send(.binary(message))
        } catch {
            throw SessionError(.carrierLost, "the relay socket refused a message: \(error)", cause: error)
        }
    }

    func close() async {
        await connection.close()
    }

    var arrivingBytes: Int { connection.arrivingByteCount }
}
