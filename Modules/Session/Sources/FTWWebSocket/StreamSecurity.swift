/// Whether the streams a client dials or a server accepts are plain or TLS, decided once with the TLS context.
///
/// The one place that knows TLS exists only where OpenSSL is linked: elsewhere asking for it fails with
/// ``WebSocketError/Code/tlsUnavailable`` (on Apple platforms URLSession's WebSocket task does TLS instead).
enum StreamSecurity: Sendable {
    /// `ws://`.
    case plain
    #if canImport(CFTWOpenSSL)
    /// `wss://`, with the context every connection's engine is made from.
    case tls(TLSContext)
    #endif

    /// A client's security: plain without a configuration.
    ///
    /// - Throws: ``WebSocketError/Code/tlsConfiguration`` for an unreadable trust root,
    ///   ``WebSocketError/Code/tlsUnavailable`` where no TLS is built.
    static func client(_ configuration: TLSConfiguration?) throws(WebSocketError) -> StreamSecurity {
        guard let configuration else { return .plain }
        #if canImport(CFTWOpenSSL)
        return .tls(try TLSContext.client(configuration))
        #else
        throw unavailable
        #endif
    }

    /// A server's security: plain without an identity.
    ///
    /// - Throws: ``WebSocketError/Code/tlsConfiguration`` for an unusable certificate or key,
    ///   ``WebSocketError/Code/tlsUnavailable`` where no TLS is built.
    static func server(_ identity: TLSServerIdentity?) throws(WebSocketError) -> StreamSecurity {
        guard let identity else { return .plain }
        #if canImport(CFTWOpenSSL)
        return .tls(try TLSContext.server(identity))
        #else
        throw unavailable
        #endif
    }

    /// Whether streams are encrypted.
    var isTLS: Bool {
        switch self {
        case .plain: false
        #if canImport(CFTWOpenSSL)
        case .tls: true
        #endif
        }
    }

    /// Runs the TLS handshake on the connected `channel` when there is one; a plain channel is ready as it is.
    ///
    /// - Parameters:
    ///   - host: The host dialled (a client verifies the certificate against it), or the peer's label (a server).
    ///   - port: The port, for messages.
    func secure(_ channel: SocketChannel, host: String, port: Int) async throws(WebSocketError) {
        switch self {
        case .plain:
            return
        #if canImport(CFTWOpenSSL)
        case .tls(let context):
            try await channel.handshakeTLS(context: context, host: host, port: port)
        #endif
        }
    }

    private static let unavailable = WebSocketError(
        .tlsUnavailable,
        "this build has no TLS engine; on Apple platforms use URLSession's WebSocket task for wss://"
    )
}
