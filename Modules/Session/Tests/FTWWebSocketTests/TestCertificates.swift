import FTWTLSCertificates
import FTWWebSocket
import Foundation

/// The certificates the TLS tests serve, made fresh by each test: a trusted CA and one leaf for each way a
/// certificate can be wrong.
struct TestCertificates {
    /// The CA the client is told to trust.
    let authority: CertificateAuthority
    /// A leaf for 127.0.0.1 and localhost, signed by ``authority``, valid now.
    let good: CertificateAndKey
    /// Signed by ``authority`` for 127.0.0.1, but its validity ended yesterday.
    let expired: CertificateAndKey
    /// Signed by ``authority``, valid, for another host.
    let wrongHost: CertificateAndKey
    /// Valid for 127.0.0.1, signed by a CA the client does not know.
    let unknownCA: CertificateAndKey
    /// Valid for 127.0.0.1, signed by itself.
    let selfSigned: CertificateAndKey

    init() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let valid = CertificateAuthority.Validity.around(now: now, days: 30)
        let hosts = ["127.0.0.1", "localhost"]
        authority = try CertificateAuthority.make(commonName: "ftw test CA", validity: valid)
        good = try authority.issue(commonName: "127.0.0.1", hosts: hosts, validity: valid)
        expired = try authority.issue(
            commonName: "127.0.0.1",
            hosts: hosts,
            validity: .init(notBefore: now - 30 * 86_400, notAfter: now - 86_400)
        )
        wrongHost = try authority.issue(commonName: "relay.example.com", hosts: ["relay.example.com"], validity: valid)
        let stranger = try CertificateAuthority.make(commonName: "a stranger's CA", validity: valid)
        unknownCA = try stranger.issue(commonName: "127.0.0.1", hosts: hosts, validity: valid)
        selfSigned = try CertificateAuthority.selfSignedLeaf(hosts: hosts, validity: valid)
    }

    /// The client's trust: the system store plus ``authority``.
    var trust: TLSConfiguration {
        TLSConfiguration(additionalTrustRoots: [.pemBytes(authority.root.certificatePEM)])
    }

    /// What a server presents when it serves `leaf`.
    static func identity(_ leaf: CertificateAndKey) -> TLSServerIdentity {
        TLSServerIdentity(certificateChainPEM: leaf.certificatePEM, privateKeyPEM: leaf.privateKeyPEM)
    }
}
