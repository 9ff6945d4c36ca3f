/// Every way a WebSocket connection, handshake or frame can fail, as one error type with an extensible code.
///
/// Callers branch on ``code``; protocol failures also carry the close code that was (or will be) sent to the peer,
/// and a peer's close carries the peer's code and reason (the relay puts its epoch in the reason of 4409/4410).
public struct WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; new kinds may be added, so switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case connectFailed, handshakeFailed, protocolViolation, messageTooBig, invalidUTF8
            case closed, connectionLost, timeout, io, cancelled, policyViolation
            case tlsUntrustedCertificate, tlsCertificateExpired, tlsWrongHost, tlsInvalidCertificate, tlsPlainTextServer
            case tlsHandshakeTimeout, tlsNoCloseNotify, tlsHandshakeFailed, tlsConfiguration, tlsUnavailable
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The TCP connection could not be made (name lookup, refused, unreachable).
        public static let connectFailed = Code(.connectFailed)
        /// The HTTP Upgrade was malformed, refused, or answered wrongly.
        public static let handshakeFailed = Code(.handshakeFailed)
        /// The peer broke RFC 6455 framing rules (close code 1002).
        public static let protocolViolation = Code(.protocolViolation)
        /// A frame or message exceeded the configured limit (close code 1009).
        public static let messageTooBig = Code(.messageTooBig)
        /// A text message or close reason was not valid UTF-8 (close code 1007).
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// The connection finished its closing handshake; ``closeCode`` and ``closeReason`` say how.
        public static let closed = Code(.closed)
        /// TCP ended without a close frame (close code 1006).
        public static let connectionLost = Code(.connectionLost)
        /// A handshake or closing handshake did not finish in time.
        public static let timeout = Code(.timeout)
        /// A socket call failed.
        public static let io = Code(.io)
        /// The waiting task was cancelled; the connection itself is unaffected.
        public static let cancelled = Code(.cancelled)
        /// The server's certificate chain does not reach a trusted root (an unknown CA, or a self-signed leaf).
        public static let tlsUntrustedCertificate = Code(.tlsUntrustedCertificate)
        /// A certificate in the server's chain has expired (or is not valid yet).
        public static let tlsCertificateExpired = Code(.tlsCertificateExpired)
        /// The server's certificate is trusted but names another host than the one dialled.
        public static let tlsWrongHost = Code(.tlsWrongHost)
        /// A certificate of the server's chain is unfit for its place: signed by a certificate that is not a CA, not
        /// meant for a TLS server (its extended key usage), or otherwise refused by verification.
        public static let tlsInvalidCertificate = Code(.tlsInvalidCertificate)
        /// The server answered the TLS ClientHello in plain text: a `ws://` port dialled as `wss://`.
        public static let tlsPlainTextServer = Code(.tlsPlainTextServer)
        /// The TCP connection was made but the TLS handshake did not finish in time.
        public static let tlsHandshakeTimeout = Code(.tlsHandshakeTimeout)
        /// TCP ended without TLS close_notify, so the stream may have been cut short (close code 1006).
        public static let tlsNoCloseNotify = Code(.tlsNoCloseNotify)
        /// The TLS handshake failed otherwise: no common version (a server of TLS 1.1 or older) or cipher, a peer's
        /// alert, an oversize or malformed record.
        public static let tlsHandshakeFailed = Code(.tlsHandshakeFailed)
        /// A trust root, certificate or key given to us could not be read.
        public static let tlsConfiguration = Code(.tlsConfiguration)
        /// This platform's build has no TLS engine (Apple platforms use URLSession instead).
        public static let tlsUnavailable = Code(.tlsUnavailable)
        /// The peer broke a rule of ours rather than of the RFC, such as flooding pings (close code 1008).
        public static let policyViolation = Code(.policyViolation)

        /// The code's name, for logs.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A human-readable account of what went wrong, for logs.
    public let message: String
    /// The close code involved: the one sent for a protocol failure, the peer's for ``Code/closed``, 1006 when lost.
    public let closeCode: UInt16?
    /// The peer's close reason, when the peer closed.
    public let closeReason: String?
    /// The HTTP status of a refused handshake.
    public let httpStatus: Int?

    /// Makes an error; the close details are optional because most failures happen outside a closing handshake.
    public init(
        _ code: Code,
        _ message: String,
        closeCode: UInt16? = nil,
        closeReason: String? = nil,
        httpStatus: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.closeCode = closeCode
        self.closeReason = closeReason
        self.httpStatus = httpStatus
    }

    /// Whether this is a TLS failure the same server would give again: its certificate did not verify, it speaks
    /// no TLS we accept, it is not a TLS port, or our own trust could not be set up.
    ///
    /// Dialling it again changes nothing, so a caller stops and names the failure rather than retrying. A handshake
    /// that timed out, or a connection cut during it (``Code/tlsNoCloseNotify``), is not such a failure.
    public var isPermanentTLSFailure: Bool {
        [
            .tlsUntrustedCertificate, .tlsCertificateExpired, .tlsWrongHost, .tlsInvalidCertificate,
            .tlsPlainTextServer, .tlsHandshakeFailed, .tlsConfiguration, .tlsUnavailable,
        ]
        .contains(code)
    }

    /// The code, the close code if any, and the message, for logs.
    public var description: String {
        var text = "WebSocketError.\(code)"
        if let closeCode { text += " [\(closeCode)]" }
        return text + ": \(message)"
    }
}

extension WebSocketError {
    static func protocolViolation(_ message: String) -> Self {
        Self(.protocolViolation, message, closeCode: WebSocketCloseCode.protocolError)
    }

    static func messageTooBig(_ message: String) -> Self {
        Self(.messageTooBig, message, closeCode: WebSocketCloseCode.messageTooBig)
    }

    static func invalidUTF8(_ message: String) -> Self {
        Self(.invalidUTF8, message, closeCode: WebSocketCloseCode.invalidPayload)
    }

    /// A text or binary frame arrived while a fragmented message was still open.
    static let interruptedFragments = protocolViolation("new data frame inside a fragmented message")

    /// A continuation frame arrived with no fragmented message open.
    static let orphanContinuation = protocolViolation("continuation frame without a message to continue")
}
