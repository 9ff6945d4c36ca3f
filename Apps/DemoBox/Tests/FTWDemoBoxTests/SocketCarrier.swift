import FTWBus
import FTWSessionInterface
import FTWWebSocket

/// A carrier over a real WebSocket to the demo relay, for the loopback tests: binary messages as binary, the
/// relay's words as control events, and the close code the socket ended with.
final class SocketCarrier: Carrier {
    let connection: WebSocketConnection
    let incoming: AsyncStream<CarrierEvent>
    private let sink: AsyncStream<CarrierEvent>.Continuation

    init(_ connection: WebSocketConnection) {
        self.connection = connection
        (incoming, sink) = AsyncStream.makeStream(of: CarrierEvent.self)
    }

    /// Reads the socket into `incoming` until it ends or the task is cancelled.
    func feed() async {
        defer { sink.finish() }
        while true {
            do {
                switch try await connection.receive() {
                case .binary(let bytes): sink.yield(.binary(bytes))
                case .text(let word): sink.yield(.control(word))
                }
            } catch {
                sink.yield(.closed(code: Int(error.closeCode ?? 1006), reason: error.closeReason ?? ""))
                return
            }
        }
    }

    func send(_ message: [UInt8]) async throws(SessionError) {
        do {
            try await connection.send(.binary(message))
        } catch {
            throw SessionError(.carrierLost, "\(error)")
        }
    }

    func close() async {
        await connection.close()
    }
}
