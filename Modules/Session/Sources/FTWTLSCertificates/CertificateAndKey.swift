/// A certificate and its private key, both in PEM: what a TLS server presents, or what a CA signs with.
public struct CertificateAndKey: Sendable, Hashable {
    /// The certificate, PEM.
    public let certificatePEM: [UInt8]
    /// Its private key, PEM (PKCS#8).
    public let privateKeyPEM: [UInt8]

    /// Pairs a certificate with its key, as read back from files.
    public init(certificatePEM: [UInt8], privateKeyPEM: [UInt8]) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}
