/// What a `wss://` server presents: its certificate chain and private key, in PEM.
///
/// The server serves TLS 1.2 or later and asks nothing of its clients (no client certificates).
public struct TLSServerIdentity: Sendable, Hashable {
    /// The leaf certificate first, then any intermediates, in PEM.
    public var certificateChainPEM: [UInt8]
    /// The leaf's private key, in PEM (PKCS#8 or the key type's own form).
    public var privateKeyPEM: [UInt8]

    /// An identity from PEM text; it is checked when a server is made with it.
    public init(certificateChainPEM: [UInt8], privateKeyPEM: [UInt8]) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }
}
