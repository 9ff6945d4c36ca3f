/// Opens client connections: TCP, then the HTTP/1.1 Upgrade of RFC 6455 §4.1.
public enum WebSocketClient {
    /// Connects to `ws://host:port/path` and completes the opening handshake.
    ///
    /// Sends a fresh random 16-byte key, asks for no extension (permessage-deflate stays off) and no subprotocol,
    /// and accepts only a 101 with the right `Sec-WebSocket-Accept`. Frames the server sends right after its answer
    /// are kept.
    /// - Parameters:
    ///   - host: A name or address literal.
    ///   - port: The TCP port.
    ///   - path: The request target, starting with `/`.
    ///   - limits: The bounds for this connection; ``WebSocketLimits/handshakeTimeout`` bounds this call.
    ///   - clock: The clock the handshake and closing timeouts run on.
    /// - Throws: ``WebSocketError`` with ``WebSocketError/Code/connectFailed``,
    ///   ``WebSocketError/Code/handshakeFailed`` (with `httpStatus` when refused), ``WebSocketError/Code/timeout``,
    ///   or ``WebSocketError/Code/cancelled``.
    public static func connect(
        host: String,
        port: Int,
        path: String,
        limits: WebSocketLimits,
        clock: any Clock<Duration>
    ) async throws(WebSocketError) -> WebSocketConnection {
        let key = WebSocketHandshake.makeKey()
        let request = try WebSocketHandshake.makeRequest(host: host, port: port, path: path, key: key)
        let socket = TCPSocket()
        let result = await BlockingCall.run(
            timeout: limits.handshakeTimeout,
            clock: clock,
            interrupt: { socket.interrupt() },
            abandon: { _ in socket.dispose() },
            work: {
                do throws(WebSocketError) {
                    try socket.dial(host: host, port: port, writeTimeout: limits.writeTimeout)
                    try socket.sendAll(request)
                    let (head, leftover) = try socket.readHead(limit: limits.maxHandshakeHeaderSize)
                    try WebSocketHandshake.validateResponse(head, key: key)
                    return .success(leftover)
                } catch {
                    socket.dispose()
                    return .failure(error)
                }
            }
        )
        let leftover = try result.get()
        let connection = WebSocketConnection(socket: socket, role: .client, limits: limits, clock: clock)
        connection.start(leftover: leftover)
        return connection
    }
}
