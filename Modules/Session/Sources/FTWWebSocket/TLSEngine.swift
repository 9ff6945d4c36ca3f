#if canImport(CFTWOpenSSL)
import CFTWOpenSSL

#if canImport(Glibc)
import Glibc
#endif

/// One TLS connection as a state machine over two OpenSSL memory BIOs: ciphertext in, plaintext out, and back.
///
/// Sans-I/O: it never touches a socket, so whoever owns the bytes drives the handshake, and every failure is
/// classified here into the ``WebSocketError`` a person reads (which certificate, which host, what is wrong).
/// Not thread-safe: one `SSL` object must never be used from two threads at once, so the ``SocketChannel`` that
/// owns it uses it on its event loop's thread only.
final class TLSEngine {
    /// Where a handshake step left the engine.
    enum Step {
        /// The handshake is complete.
        case done
        /// The engine waits for the peer's next bytes (send ``takeOutput()`` first).
        case needsInput
        /// The handshake failed; ``takeOutput()`` may hold the alert to send.
        case failed(WebSocketError)
    }

    /// What a read of plaintext found.
    enum Read {
        /// This many bytes of plaintext were copied out.
        case bytes(Int)
        /// No whole record is buffered; feed more ciphertext.
        case needsInput
        /// The peer sent close_notify: the stream ended cleanly.
        case closed
        /// The peer's record was rejected (tampered with, or not TLS): the stream cannot go on (1006).
        case failed(WebSocketError)
    }

    private let context: TLSContext
    private let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    /// The peer as a person knows it, "host:port", for messages.
    let peer: String
    private let host: String
    private var hasSeenInput = false
    /// Whether the handshake completed.
    private(set) var isEstablished = false

    /// An engine for one connection; a client verifies that the server's certificate names `host`.
    ///
    /// - Throws: ``WebSocketError/Code/tlsConfiguration`` when OpenSSL cannot make the connection's objects.
    init(context: TLSContext, host: String, port: Int) throws(WebSocketError) {
        guard let ssl = SSL_new(context.pointer), let incoming = BIO_new(BIO_s_mem()),
            let outgoing = BIO_new(BIO_s_mem())
        else { throw WebSocketError(.tlsConfiguration, "OpenSSL made no TLS connection object") }
        SSL_set_bio(ssl, incoming, outgoing)
        self.context = context
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.host = host
        peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard context.role == .client else {
            SSL_set_accept_state(ssl)
            return
        }
        SSL_set_connect_state(ssl)
        let parameters = SSL_get0_param(ssl)
        // Names by subjectAltName only (RFC 6125 §6.4.4, as browsers match): never OpenSSL's fallback to the CN.
        X509_VERIFY_PARAM_set_hostflags(
            parameters,
            UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT)
        )
        let pinned =
            Self.isIPLiteral(host)
            ? X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
            : X509_VERIFY_PARAM_set1_host(parameters, host, 0) & ftw_SSL_set_server_name(ssl, host)
        guard pinned == 1 else {
            ERR_clear_error()
            throw WebSocketError(.tlsConfiguration, "\(host) cannot be checked against a certificate")
        }
    }

    deinit { SSL_free(ssl) }

    /// Hands the engine ciphertext the peer sent.
    ///
    /// - Returns: ``WebSocketError/Code/tlsPlainTextServer`` when a server's first byte cannot start a TLS record.
    func feed(_ ciphertext: UnsafeRawBufferPointer) -> WebSocketError? {
        if !hasSeenInput, let first = ciphertext.first {
            hasSeenInput = true
            if context.role == .client, !(20...23).contains(first) { return plainTextAnswer(ciphertext) }
        }
        _ = BIO_write(incoming, ciphertext.baseAddress, Int32(ciphertext.count))
        return nil
    }

    /// Advances the handshake as far as the fed bytes allow.
    func handshake() -> Step {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isEstablished = true
            return .done
        }
        if SSL_get_error(ssl, result) == SSL_ERROR_WANT_READ { return .needsInput }
        return .failed(handshakeFailure())
    }

    /// Copies out plaintext from the records fed so far into `buffer` (the socket's own, reused for every read).
    ///
    /// With nothing fed and nothing held it says so without asking OpenSSL, whose failing read costs about as much
    /// as a successful one; the loop that drains the engine asks once more after every record.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        guard hasBufferedInput else { return .needsInput }
        Self.clearStaleErrors()
        let count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
        if count > 0 { return .bytes(Int(count)) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_READ:
            return .needsInput
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            return .failed(
                WebSocketError(
                    .connectionLost,
                    "a TLS record from \(peer) was rejected: \(Self.reason())",
                    closeCode: WebSocketCloseCode.abnormalClosure
                )
            )
        }
    }

    /// Encrypts `plaintext` into records waiting in ``takeOutput()``.
    func write(_ plaintext: [UInt8]) -> WebSocketError? {
        guard !plaintext.isEmpty else { return nil }
        Self.clearStaleErrors()
        let written = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == plaintext.count else {
            return WebSocketError(.io, "TLS could not encrypt for \(peer): \(Self.reason())")
        }
        return nil
    }

    /// Queues close_notify: the peer learns the stream ended here and was not cut.
    func closeNotify() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Whether ciphertext waits to be sent.
    var hasOutput: Bool { BIO_ctrl_pending(outgoing) > 0 }

    /// Whether fed bytes may still hold plaintext, so a read can go on without the socket.
    /// `SSL_has_pending` counts a record read from the BIO and not yet opened, which `SSL_pending` does not.
    var hasBufferedInput: Bool { SSL_has_pending(ssl) == 1 || BIO_ctrl_pending(incoming) > 0 }

    /// Empties this thread's OpenSSL error queue if anything is in it, so the next `SSL_get_error` reads only what
    /// the next call leaves. Clearing walks all of the queue's slots (about 800 instructions); looking first costs
    /// a fraction of that, and the queue is empty on every read but one after a failure.
    private static func clearStaleErrors() {
        if ERR_peek_error() != 0 { ERR_clear_error() }
    }

    /// The ciphertext made so far, in order, for the socket.
    func takeOutput() -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: pending)
        let read = output.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
        return Array(output.prefix(max(0, Int(read))))
    }

    /// The error for a TCP end before close_notify.
    func endWithoutCloseNotify() -> WebSocketError {
        let when = isEstablished ? "" : " during the TLS handshake"
        return WebSocketError(
            .tlsNoCloseNotify,
            "\(peer) closed TCP\(when) without TLS close_notify; what it sent may be cut short",
            closeCode: WebSocketCloseCode.abnormalClosure
        )
    }

    /// Names what failed: the certificate's verdict when verification failed, OpenSSL's reason otherwise.
    private func handshakeFailure() -> WebSocketError {
        let verdict = Int32(SSL_get_verify_result(ssl))
        guard context.role == .client, verdict != X509_V_OK else { return protocolFailure() }
        ERR_clear_error()
        return certificateFailure(verdict)
    }

    /// What a certificate's verdict means to a person, and the code a caller branches on.
    private func certificateFailure(_ verdict: Int32) -> WebSocketError {
        let certificate = "the TLS certificate of \(peer)"
        switch verdict {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return WebSocketError(.tlsCertificateExpired, "\(certificate) has expired")
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return WebSocketError(.tlsCertificateExpired, "\(certificate) is not valid yet")
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            let why =
                ftw_SSL_peer_leaf_has_subject_alt_name(ssl) == 0
                ? "it has no subjectAltName, and a name in its common name alone is not accepted"
                : "it names another host"
            return WebSocketError(.tlsWrongHost, "\(certificate) is not valid for \(host): \(why)")
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
            return WebSocketError(.tlsUntrustedCertificate, "\(certificate) is self-signed and not trusted")
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
            X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE,
            X509_V_ERR_CERT_UNTRUSTED:
            return WebSocketError(
                .tlsUntrustedCertificate,
                "\(certificate) is not trusted: its issuer is not a trusted CA (add the CA as a trust root)"
            )
        case X509_V_ERR_INVALID_CA:
            return WebSocketError(.tlsInvalidCertificate, "\(certificate) is signed by a certificate that is not a CA")
        case X509_V_ERR_INVALID_PURPOSE:
            return WebSocketError(
                .tlsInvalidCertificate,
                "\(certificate) is not for a TLS server: its extended key usage does not allow server authentication"
            )
        default:
            let why = String(cString: X509_verify_cert_error_string(Int(verdict)))
            return WebSocketError(.tlsInvalidCertificate, "\(certificate) failed verification: \(why)")
        }
    }

    /// A handshake that failed before or beside the certificate: the versions, the records, a peer's alert.
    private func protocolFailure() -> WebSocketError {
        let code = ERR_get_error()
        ERR_clear_error()
        switch ERR_GET_REASON(code) {
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_WRONG_SSL_VERSION, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
            return WebSocketError(
                .tlsHandshakeFailed,
                "\(peer) speaks no TLS version this client accepts: TLS 1.2 or later is required"
            )
        case SSL_R_PACKET_LENGTH_TOO_LONG, SSL_R_ENCRYPTED_LENGTH_TOO_LONG, SSL_R_DATA_LENGTH_TOO_LONG,
            SSL_R_EXCESSIVE_MESSAGE_SIZE:
            return WebSocketError(
                .tlsHandshakeFailed,
                "\(peer) sent a TLS record longer than TLS allows: it is not a TLS server, or a broken one"
            )
        default:
            return WebSocketError(.tlsHandshakeFailed, "the TLS handshake with \(peer) failed: \(Self.reason(code))")
        }
    }

    private func plainTextAnswer(_ bytes: UnsafeRawBufferPointer) -> WebSocketError {
        let line = bytes.prefix(40).prefix { $0 != 13 && $0 != 10 }
        let printable = line.allSatisfy { (32...126).contains($0) }
        let sample = printable ? " (it began \"\(String(decoding: line, as: UTF8.self))\")" : ""
        return WebSocketError(
            .tlsPlainTextServer,
            "\(peer) answered in plain text, not TLS\(sample): it is a ws:// port, not wss://"
        )
    }

    /// OpenSSL's reason for `code`, by default the oldest error queued on this thread (the queue is then cleared).
    private static func reason(_ code: UInt = ERR_get_error()) -> String {
        ERR_clear_error()
        guard code != 0, let text = ERR_reason_error_string(code) else { return "no reason given" }
        return String(cString: text)
    }

    private static func isIPLiteral(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
#endif
