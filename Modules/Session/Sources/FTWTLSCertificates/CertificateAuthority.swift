/// A certificate authority made on the spot with libcrypto's X509 API, and the certificates it signs.
///
/// For the demo box (its `--tls` CA) and tests (expired, wrong-host and self-signed certificates), never for the
/// client library: a client only ever trusts a CA, it never makes one. Keys are P-256; certificates are X.509 v3
/// with the extensions a strict verifier wants (basic constraints, key usage, key identifiers, subject alternative
/// names). Validity is given in Unix seconds by the caller, whose clock it is. Built on Linux only (OpenSSL); elsewhere
/// every factory throws.
public struct CertificateAuthority: Sendable, Hashable {
    /// A span of validity, in Unix seconds.
    public struct Validity: Sendable, Hashable {
        /// The first second the certificate is valid.
        public var notBefore: Int64
        /// The last second the certificate is valid.
        public var notAfter: Int64

        /// A span from `notBefore` to `notAfter`.
        public init(notBefore: Int64, notAfter: Int64) {
            self.notBefore = notBefore
            self.notAfter = notAfter
        }

        /// From an hour before `now` (clocks differ a little) until `days` after it.
        public static func around(now: Int64, days: Int64) -> Validity {
            Validity(notBefore: now - 3_600, notAfter: now + days * 86_400)
        }
    }

    /// What a leaf's extended key usage allows it to prove.
    public enum Usage: Sendable, Hashable {
        /// A TLS server's identity (`serverAuth`): what a relay presents.
        case serverAuthentication
        /// A TLS client's identity only (`clientAuth`): a verifying client must refuse it from a server.
        case clientAuthentication
    }

    /// The CA's own certificate and key.
    public let root: CertificateAndKey

    /// A CA from a certificate and key made earlier (the demo box's, read back from its state folder).
    public init(root: CertificateAndKey) {
        self.root = root
    }

    /// Makes a new CA with a fresh key.
    ///
    /// - Throws: ``CertificateError`` when OpenSSL refuses a step.
    public static func make(commonName: String, validity: Validity) throws(CertificateError) -> CertificateAuthority {
        #if canImport(CFTWOpenSSL)
        return CertificateAuthority(root: try X509Builder.makeAuthority(commonName: commonName, validity: validity))
        #else
        throw CertificateError.unavailable
        #endif
    }

    /// A leaf for `hosts` (DNS names or IP literals) in its subjectAltName, signed by this CA.
    ///
    /// The tests' hostile servers are made with it too: `hosts: []` gives a leaf named only by its common name (no
    /// subjectAltName, which a verifying client must refuse), `usage: .clientAuthentication` one a server must not
    /// present, and a CA made with ``init(root:)`` from a leaf signs with a certificate that is not a CA.
    /// - Throws: ``CertificateError`` when the CA's PEM cannot be read or OpenSSL refuses a step.
    public func issue(
        commonName: String,
        hosts: [String],
        usage: Usage = .serverAuthentication,
        validity: Validity
    ) throws(CertificateError)
        -> CertificateAndKey
    {
        #if canImport(CFTWOpenSSL)
        return try X509Builder.issue(by: root, commonName: commonName, hosts: hosts, usage: usage, validity: validity)
        #else
        throw CertificateError.unavailable
        #endif
    }

    /// Writes the CA's certificate into `folder` under its subject hash (`1a2b3c4d.0`, the next free suffix), as
    /// `c_rehash` names a system's CAs: a folder OpenSSL's hashed-directory lookup finds it in.
    ///
    /// - Returns: The file's path.
    /// - Throws: ``CertificateError`` when the certificate cannot be read or the file cannot be written.
    @discardableResult
    public func writeHashed(into folder: String) throws(CertificateError) -> String {
        #if canImport(CFTWOpenSSL)
        return try X509Builder.writeHashed(root.certificatePEM, into: folder)
        #else
        throw CertificateError.unavailable
        #endif
    }

    /// A leaf for `hosts` that signs itself: no CA vouches for it, so a verifying client must refuse it.
    ///
    /// - Throws: ``CertificateError`` when OpenSSL refuses a step.
    public static func selfSignedLeaf(
        hosts: [String],
        validity: Validity
    ) throws(CertificateError)
        -> CertificateAndKey
    {
        #if canImport(CFTWOpenSSL)
        return try X509Builder.selfSignedLeaf(hosts: hosts, validity: validity)
        #else
        throw CertificateError.unavailable
        #endif
    }
}
