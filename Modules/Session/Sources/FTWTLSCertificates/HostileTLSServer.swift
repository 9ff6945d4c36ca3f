#if canImport(CFTWOpenSSL)
import CFTWOpenSSL
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TLS server on 127.0.0.1 that answers every connection with the same fault, and counts the dials.
///
/// For tests of what a client does with a server that can never answer otherwise: it must stop at once and name
/// the fault, so the count of dials says whether it dialled again. Every certificate it presents names
/// `localhost` only by the means the fault allows, and chains to the authority the test's client trusts, so the
/// fault is the only thing wrong. Each connection is served on a thread of its own with OpenSSL's blocking calls
/// on the socket (a test server, never the client's path); ``stop()`` shuts every socket down, which wakes them.
public final class HostileTLSServer: Sendable {
    /// What is wrong with the server; a client dials `localhost` (the name every certificate here is about).
    public enum Fault: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Its leaf is signed by a certificate that is not a CA (a leaf of the trusted CA), sent as the chain.
        case leafSignedByNonCA
        /// Its leaf's extended key usage allows client authentication only.
        case clientOnlyLeaf
        /// Its leaf has no subjectAltName; `localhost` is only its common name.
        case commonNameOnly
        /// It speaks TLS 1.0 and 1.1 only (at OpenSSL's security level 0, which still allows it), with a good leaf.
        case tls11Only
        /// It reads the ClientHello, then announces a handshake record of 65,535 bytes (TLS allows 16,384 plus a
        /// little expansion) and sends the first bytes of it.
        case oversizeRecord

        /// The fault's name, for test output.
        public var description: String { rawValue }
    }

    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let sockets = Mutex<[Int32]>([])
    private let dialled = Atomic(0)
    /// The server's `SSL_CTX` (none for a fault that speaks no TLS): configured in `init` and never changed
    /// afterwards, which is what lets OpenSSL share it between the connections' threads.
    nonisolated(unsafe) private let context: OpaquePointer?

    /// Listens on an ephemeral port of 127.0.0.1 and serves `fault` until ``stop()``.
    ///
    /// - Parameters:
    ///   - fault: How every connection is answered.
    ///   - authority: The CA the client trusts; every certificate presented chains to it.
    ///   - validity: When the certificates are valid (the caller's clock).
    /// - Throws: ``CertificateError`` when a certificate cannot be made or the port cannot be bound.
    public init(
        _ fault: Fault,
        authority: CertificateAuthority,
        validity: CertificateAuthority.Validity
    ) throws(CertificateError) {
        context = try Self.context(for: fault, authority: authority, validity: validity)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            context.map { SSL_CTX_free($0) }
            throw CertificateError("no port on 127.0.0.1 could be bound")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { self.acceptLoop() }.start()
    }

    deinit {
        close(listener)
        for descriptor in sockets.withLock({ $0 }) { close(descriptor) }
        context.map { SSL_CTX_free($0) }
    }

    /// How many dials reached the server so far: connections that sent a byte (the TLS hello). A second connection
    /// that Happy Eyeballs opens to another of `localhost`'s addresses, when the first has not connected within its
    /// 250 ms (a loaded machine), is closed unused once the first wins, so it is no dial.
    public var dials: Int { dialled.load(ordering: .sequentiallyConsistent) }

    /// Stops listening and ends every connection.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in sockets.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            sockets.withLock { $0.append(client) }
            Thread { self.serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        var first: UInt8 = 0
        if recv(client, &first, 1, Int32(MSG_PEEK)) > 0 { dialled.add(1, ordering: .sequentiallyConsistent) }
        if let context {
            handshake(client, context: context)
        } else {
            announceOversizeRecord(client)
        }
        drain(client)
        shutdown(client, Int32(SHUT_RDWR))
    }

    /// OpenSSL's server side of a handshake on the socket; whatever the client decides, the server goes no further.
    private func handshake(_ client: Int32, context: OpaquePointer) {
        guard let ssl = SSL_new(context) else { return }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, client)
        if SSL_accept(ssl) == 1 { _ = SSL_shutdown(ssl) }
        ERR_clear_error()
    }

    private func announceOversizeRecord(_ client: Int32) {
        var hello = [UInt8](repeating: 0, count: 16_384)
        guard hello.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 else { return }
        let record: [UInt8] = [22, 3, 3, 0xFF, 0xFF] + [2, 0, 0xFF, 0xFB] + [UInt8](repeating: 0, count: 64)
        _ = record.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the client ends its side, so the client, not the server, decides when the connection ends.
    private func drain(_ client: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while chunk.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
    }

    private static func context(
        for fault: Fault,
        authority: CertificateAuthority,
        validity: CertificateAuthority.Validity
    ) throws(CertificateError) -> OpaquePointer? {
        let hosts = ["localhost"]
        switch fault {
        case .oversizeRecord:
            return nil
        case .leafSignedByNonCA:
            let signer = try authority.issue(
                commonName: "a leaf, not a CA",
                hosts: ["signer.example"],
                validity: validity
            )
            let leaf = try CertificateAuthority(root: signer).issue(
                commonName: "localhost",
                hosts: hosts,
                validity: validity
            )
            return try serverContext(leaf, chain: [signer.certificatePEM], versions: (TLS1_2_VERSION, 0))
        case .clientOnlyLeaf:
            let leaf = try authority.issue(
                commonName: "localhost",
                hosts: hosts,
                usage: .clientAuthentication,
                validity: validity
            )
            return try serverContext(leaf, versions: (TLS1_2_VERSION, 0))
        case .commonNameOnly:
            let leaf = try authority.issue(commonName: "localhost", hosts: [], validity: validity)
            return try serverContext(leaf, versions: (TLS1_2_VERSION, 0))
        case .tls11Only:
            let leaf = try authority.issue(commonName: "localhost", hosts: hosts, validity: validity)
            return try serverContext(leaf, versions: (TLS1_VERSION, TLS1_1_VERSION))
        }
    }

    /// A server context presenting `leaf` and `chain` (one PEM certificate each, sent after the leaf) for TLS `versions` (0: no bound).
    private static func serverContext(
        _ leaf: CertificateAndKey,
        chain intermediates: [[UInt8]] = [],
        versions: (lowest: Int32, highest: Int32)
    ) throws(CertificateError) -> OpaquePointer {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw CertificateError("no TLS server context") }
        if versions.highest != 0 { SSL_CTX_set_security_level(context, 0) }
        let chain = (try? ([leaf.certificatePEM] + intermediates).map(X509Builder.readCertificate)) ?? []
        defer { chain.forEach { X509_free($0) } }
        let key = try? X509Builder.readKey(leaf.privateKeyPEM)
        defer { key.map { EVP_PKEY_free($0) } }
        let configured =
            ftw_SSL_CTX_set_proto_versions(context, versions.lowest, versions.highest) == 1
            && chain.first.map { SSL_CTX_use_certificate(context, $0) == 1 } == true
            && chain.dropFirst().allSatisfy { ftw_SSL_CTX_add_chain_certificate(context, $0) == 1 }
            && key.map { SSL_CTX_use_PrivateKey(context, $0) == 1 } == true
        guard configured else {
            SSL_CTX_free(context)
            ERR_clear_error()
            throw CertificateError("the hostile server's certificate, key or versions were refused")
        }
        return context
    }
}
#endif
