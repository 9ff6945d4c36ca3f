/// The bytes a WebSocket reads and writes: one TCP socket, in the clear (`ws://`) or through TLS (`wss://`).
///
/// Everything above it (handshake, frames, closing) is the same for both; only this type knows whether a byte is
/// encrypted. Reads happen on one thread and writes on one serial queue, as for ``TCPSocket``; with TLS,
/// ``TLSSession`` keeps those two from using the TLS engine at once.
final class ByteStream: Sendable {
    private enum Security {
        /// `ws://`: bytes go to the socket as they are.
        case plain
        #if canImport(COpenSSL)
        /// `wss://`: bytes go through the TLS session.
        case tls(TLSSession)
        #endif
    }

    /// The socket underneath, which any thread may interrupt.
    let socket: TCPSocket
    private let security: Security

    /// Bytes in the clear over `socket`.
    init(plain socket: TCPSocket) {
        self.socket = socket
        security = .plain
    }

    #if canImport(COpenSSL)
    /// Bytes through `session`, whose handshake is complete.
    init(tls session: TLSSession) {
        socket = session.socket
        security = .tls(session)
    }
    #endif

    /// Reads what is available, blocking until something is.
    ///
    /// - Returns: The number of bytes read; 0 when the peer ended the stream or the socket was shut down.
    /// - Throws: ``WebSocketError/Code/connectionLost`` when the read fails, or (TLS)
    ///   ``WebSocketError/Code/tlsNoCloseNotify`` when TCP ends without close_notify.
    func receive(into buffer: inout [UInt8]) throws(WebSocketError) -> Int {
        switch security {
        case .plain: return try socket.receive(into: &buffer)
        #if canImport(COpenSSL)
        case .tls(let session): return try session.receive(into: &buffer)
        #endif
        }
    }

    /// Writes every byte (encrypted first, with TLS).
    func sendAll(_ bytes: [UInt8]) throws(WebSocketError) {
        switch security {
        case .plain: try socket.sendAll(bytes)
        #if canImport(COpenSSL)
        case .tls(let session): try session.sendAll(bytes)
        #endif
        }
    }

    /// Ends our direction after everything written so far (with TLS, close_notify goes first).
    func finishWriting() {
        switch security {
        case .plain: socket.finishWriting()
        #if canImport(COpenSSL)
        case .tls(let session): session.finishWriting()
        #endif
        }
    }

    /// Ends the connection in both directions and wakes any thread blocked on it.
    func interrupt() { socket.interrupt() }

    /// Releases the descriptor; later calls do nothing.
    func dispose() { socket.dispose() }

    /// Reads and discards until the peer ends the stream, waiting at most `timeout` in all for silence to end.
    ///
    /// Closing with unread bytes makes the kernel send RST, which can destroy the close frame the peer has not
    /// read yet; draining first lets the last frame arrive.
    func drain(timeout: Duration) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let slices = 16
        var quietSlices = 0
        var reads = 0
        while quietSlices < slices, reads < 256 {
            guard hasBufferedInput || socket.waitUntilReadable(timeout: timeout / slices) else {
                quietSlices += 1
                continue
            }
            guard let count = try? receive(into: &buffer), count > 0 else { return }
            reads += 1
        }
    }

    private var hasBufferedInput: Bool {
        switch security {
        case .plain: false
        #if canImport(COpenSSL)
        case .tls(let session): session.hasBufferedInput
        #endif
        }
    }
}
