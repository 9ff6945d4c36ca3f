/// How a `wss://` client decides whom to trust: the system's trust store, plus roots the caller adds.
///
/// Verification is always on: the chain must reach a trusted root, every certificate must be valid now, and the
/// leaf must name the host that was dialled (a DNS name, or an IP address for an IP literal). There is no switch
/// that turns any of this off; a self-hosted relay or a test adds its own CA as an extra root instead.
/// TLS 1.2 is the lowest version spoken, and the host name is sent as SNI unless it is an IP literal.
///
/// On Linux the handshake runs on OpenSSL's libssl; on Apple platforms this module builds no TLS (URLSession's
/// WebSocket task is the seam there) and a dial with a configuration fails with ``WebSocketError/Code/tlsUnavailable``.
public struct TLSConfiguration: Sendable, Hashable {
    /// Certificates trusted in addition to the system's, in PEM.
    public enum TrustRoots: Sendable, Hashable {
        /// A PEM file holding one or more CA certificates (read at each dial).
        case pemFile(String)
        /// PEM text holding one or more CA certificates.
        case pemBytes([UInt8])
    }

    /// Roots trusted besides the system trust store.
    public var additionalTrustRoots: [TrustRoots]

    /// Trusts the system trust store, and `additionalTrustRoots` besides.
    public init(additionalTrustRoots: [TrustRoots] = []) {
        self.additionalTrustRoots = additionalTrustRoots
    }

    /// The system trust store plus the CA certificates in the PEM file at `path` (`--ca FILE`).
    public static func trusting(caFile path: String) -> TLSConfiguration {
        TLSConfiguration(additionalTrustRoots: [.pemFile(path)])
    }
}
