/// Reading the HTTP head that opens every WebSocket connection.
extension ByteStream {
    /// The first byte of a TLS ClientHello, which no HTTP head starts with.
    static let tlsHandshakeRecord: UInt8 = 0x16

    /// Reads until the blank line that ends an HTTP head, never buffering more than `limit` bytes of head.
    ///
    /// - Returns: The head through its blank line, and any bytes the peer sent after it (early frames).
    /// - Throws: ``WebSocketError/Code/handshakeFailed`` when the head is too long, TCP ends first, or the peer
    ///   opens with a TLS record on this plain stream (with `httpStatus` 400, so a server answers in plain text).
    func readHead(limit: Int) throws(WebSocketError) -> (head: [UInt8], leftover: [UInt8]) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = try receive(into: &chunk)
            guard count > 0 else { throw WebSocketError(.handshakeFailed, "connection ended during the handshake") }
            if received.isEmpty, chunk[0] == Self.tlsHandshakeRecord {
                throw WebSocketError(.handshakeFailed, "the peer speaks TLS on a plain ws:// port", httpStatus: 400)
            }
            let searchFrom = received.count
            received.append(contentsOf: chunk[..<count])
            if let end = HTTPHead.endOffset(in: received, searchFrom: searchFrom), end <= limit {
                return (Array(received[..<end]), Array(received[end...]))
            }
            guard received.count < limit else {
                throw WebSocketError(.handshakeFailed, "HTTP head longer than \(limit) bytes")
            }
        }
    }
}

extension ByteStream {
    /// Writes an HTTP refusal, lets the client read it, and releases the socket.
    func sendRefusal(_ response: [UInt8], drainFor timeout: Duration) {
        if (try? sendAll(response)) != nil {
            finishWriting()
            drain(timeout: timeout)
        }
        dispose()
    }
}
