public import FTWSocketLoop
import Synchronization

/// Opens client connections: TCP, then TLS for `wss://`, then the HTTP/1.1 Upgrade of RFC 6455 §4.1.
public enum WebSocketClient {
    /// How far a dial got, so a deadline can say which step it cut short.
    private final class Progress: Sendable {
        let isNegotiatingTLS = Atomic(false)
    }

    /// Connects to `ws://host:port/path`, or `wss://host:port/path` when `tls` is given, and completes the opening
    /// handshake.
    ///
    /// With `tls`, the TLS handshake verifies the server (chain, validity, host name: see ``TLSConfiguration``)
    /// before any WebSocket byte is sent. Then sends a fresh random 16-byte key, asks for no extension
    /// (permessage-deflate stays off) and no subprotocol, and accepts only a 101 with the right
    /// `Sec-WebSocket-Accept`. Frames the server sends right after its answer are kept. A name's addresses of both
    /// families are raced by Happy Eyeballs (RFC 8305): IPv6 first, the next address 250 ms (on `clock`) after the
    /// last unless it failed sooner, the first to connect kept.
    /// - Parameters:
    ///   - host: A name or address literal; with TLS the certificate must name it.
    ///   - port: The TCP port.
    ///   - path: The request target, starting with `/`.
    ///   - limits: The bounds for this connection; ``WebSocketLimits/handshakeTimeout`` bounds this call, TLS
    ///     included.
    ///   - clock: The clock the handshake and closing timeouts run on.
    ///   - tls: The trust for `wss://`; nil dials plain `ws://`.
    ///   - loop: The event loop the socket lives on (a client's, so its frames reach its models on one thread); nil
    ///     for the process's shared loop.
    /// - Throws: ``WebSocketError`` with ``WebSocketError/Code/connectFailed``,
    ///   ``WebSocketError/Code/handshakeFailed`` (with `httpStatus` when refused), ``WebSocketError/Code/timeout``,
    ///   ``WebSocketError/Code/cancelled``, or with TLS one of the `tls…` codes (untrusted, expired, wrong host,
    ///   plain-text server, handshake timeout, no close_notify, handshake failed, configuration, unavailable).
    public static func connect(
        host: String,
        port: Int,
        path: String,
        limits: WebSocketLimits,
        clock: any Clock<Duration>,
        tls: TLSConfiguration? = nil,
        loop: EventLoop? = nil
    ) async throws(WebSocketError) -> WebSocketConnection {
        try await connect(
            host: host,
            port: port,
            path: path,
            limits: limits,
            clock: clock,
            tls: tls,
            loop: loop,
            resolver: .system
        )
    }

    /// ``connect(host:port:path:limits:clock:tls:loop:)`` with the host's addresses from `resolver`: a test's relay
    /// name whose addresses it chooses on loopback.
    package static func connect(
        host: String,
        port: Int,
        path: String,
        limits: WebSocketLimits,
        clock: any Clock<Duration>,
        tls: TLSConfiguration?,
        loop: EventLoop?,
        resolver: HostResolver
    ) async throws(WebSocketError) -> WebSocketConnection {
        let security = try StreamSecurity.client(tls)
        let loop = try EventLoop.forSockets(loop)
        let key = WebSocketHandshake.makeKey()
        let request = try WebSocketHandshake.makeRequest(host: host, port: port, path: path, key: key)
        let dial = DialAttempt()
        let progress = Progress()
        let result = await Deadline.run(
            timeout: limits.handshakeTimeout,
            clock: clock,
            expire: { dial.abort($0) },
            abandon: { $0.channel.abort(SocketChannel.closedError) },
            work: { () async -> Result<(channel: SocketChannel, leftover: [UInt8]), WebSocketError> in
                do throws(WebSocketError) {
                    let channel = try await SocketChannel.connect(
                        host: host,
                        port: port,
                        loop: loop,
                        clock: clock,
                        stall: { WriteStall(clock: clock, timeout: limits.writeTimeout) },
                        dial: dial,
                        resolver: resolver
                    )
                    progress.isNegotiatingTLS.store(security.isTLS, ordering: .sequentiallyConsistent)
                    try await security.secure(channel, host: host, port: port)
                    progress.isNegotiatingTLS.store(false, ordering: .sequentiallyConsistent)
                    try await channel.writeAll(request)
                    let (head, leftover) = try await channel.readHead(limit: limits.maxHandshakeHeaderSize)
                    try WebSocketHandshake.validateResponse(head, key: key)
                    return .success((channel, leftover))
                } catch {
                    dial.abort(error)
                    return .failure(error)
                }
            }
        )
        let (channel, leftover): (SocketChannel, [UInt8])
        do {
            (channel, leftover) = try result.get()
        } catch  where error.code == .timeout && progress.isNegotiatingTLS.load(ordering: .sequentiallyConsistent) {
            throw WebSocketError(
                .tlsHandshakeTimeout,
                "\(host):\(port) did not finish the TLS handshake within \(limits.handshakeTimeout)"
            )
        }
        let connection = WebSocketConnection(channel: channel, role: .client, limits: limits, clock: clock)
        connection.start(leftover: leftover)
        return connection
    }
}
