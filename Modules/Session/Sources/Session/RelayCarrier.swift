import SessionInterface
import Synchronization
import WebSocket

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

    /// Wraps an open connection.
    ///
    /// - Parameters:
    ///   - connection: The WebSocket, already upgraded.
    ///   - onClose: Told the close code and reason when the relay (or the network) ends the socket.
    init(connection: WebSocketConnection, onClose: @escaping @Sendable (Int, String) -> Void) {
        self.connection = connection
        let ended = Ended()
        incoming = AsyncStream<CarrierEvent>(unfolding: {
            guard !ended.value.withLock({ $0 }) else { return nil }
            do throws(WebSocketError) {
                switch try await connection.receive() {
                case .text(let word): return .control(word)
                case .binary(let bytes): return .binary(bytes)
                }
            } catch {
                if error.code == .cancelled { return nil }
                ended.value.withLock { $0 = true }
                let code = Int(error.closeCode ?? WebSocketCloseCode.abnormalClosure)
                let reason = error.closeReason ?? error.message
                onClose(code, reason)
                return .closed(code: code, reason: reason)
            }
        })
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
