#if canImport(CFTWOpenSSL)
import CFTWOpenSSL
import Foundation
import Synchronization

/// One OpenSSL `SSL_CTX`: the trust a client verifies with, or the identity a server presents.
///
/// It is configured completely in its factory and never changed afterwards, which is what lets OpenSSL share it
/// between threads; each connection makes its own `SSL` object from it (``TLSEngine``).
final class TLSContext: @unchecked Sendable {
    /// What a client context is made from: where the system's CAs are, and the extra roots' PEM.
    private struct ClientKey: Hashable {
        let system: SystemTrustStore.Location
        let roots: [[UInt8]]
    }

    /// Client contexts by what they trust: a context keeps the system CAs its handshakes looked up
    /// (``SystemTrustStore``) and libssl's per-context set-up, so it is made once per set of roots rather than at
    /// every dial. A file root is read again at each dial and keyed by its content, so a changed file makes a new
    /// context. At most `maxCachedClients` sets are kept.
    private static let clients = Mutex<[ClientKey: TLSContext]>([:])
    private static let maxCachedClients = 8

    let pointer: OpaquePointer
    let role: WebSocketRole

    private init(pointer: OpaquePointer, role: WebSocketRole) {
        self.pointer = pointer
        self.role = role
    }

    deinit { SSL_CTX_free(pointer) }

    /// A client context: TLS 1.2 or later, peer verification on, the system's CAs (`system`, looked up on demand)
    /// and `configuration`'s roots.
    ///
    /// - Throws: ``WebSocketError/Code/tlsConfiguration`` when a root cannot be read or holds no certificate.
    static func client(
        _ configuration: TLSConfiguration,
        system: SystemTrustStore.Location = SystemTrustStore.current
    ) throws(WebSocketError) -> TLSContext {
        var roots: [(pem: [UInt8], source: String)] = []
        for root in configuration.additionalTrustRoots { roots.append(try pemText(of: root)) }
        let key = ClientKey(system: system, roots: roots.map(\.pem))
        if let cached = clients.withLock({ $0[key] }) { return cached }
        let context = try makeClient(system: system, roots: roots)
        clients.withLock { clients in
            if clients.count >= maxCachedClients { clients.removeAll() }
            clients[key] = context
        }
        return context
    }

    private static func makeClient(
        system: SystemTrustStore.Location,
        roots: [(pem: [UInt8], source: String)]
    ) throws(WebSocketError) -> TLSContext {
        let context = try make(TLS_client_method(), role: .client)
        SSL_CTX_set_verify(context.pointer, SSL_VERIFY_PEER, nil)
        let store = SSL_CTX_get_cert_store(context.pointer)
        guard let store, SystemTrustStore.install(system, in: store) else {
            throw configurationError("the system trust store could not be loaded")
        }
        for (pem, source) in roots {
            let certificates = certificates(inPEM: pem)
            defer { certificates.forEach { X509_free($0) } }
            guard !certificates.isEmpty else { throw configurationError("\(source) holds no PEM certificate") }
            for certificate in certificates where X509_STORE_add_cert(store, certificate) != 1 {
                ERR_clear_error()
            }
        }
        return context
    }

    /// A server context presenting `identity`.
    ///
    /// - Throws: ``WebSocketError/Code/tlsConfiguration`` when the chain or key cannot be read or do not match.
    static func server(_ identity: TLSServerIdentity) throws(WebSocketError) -> TLSContext {
        let context = try make(TLS_server_method(), role: .server)
        let chain = certificates(inPEM: identity.certificateChainPEM)
        defer { chain.forEach { X509_free($0) } }
        guard let leaf = chain.first, SSL_CTX_use_certificate(context.pointer, leaf) == 1 else {
            throw configurationError("the server's certificate chain holds no usable PEM certificate")
        }
        for intermediate in chain.dropFirst()
        where ftw_SSL_CTX_add_chain_certificate(context.pointer, intermediate) != 1 {
            throw configurationError("an intermediate certificate of the server's chain was refused")
        }
        let key = identity.privateKeyPEM.withUnsafeBytes { raw -> OpaquePointer? in
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else { throw configurationError("the server's private key is not a PEM key") }
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(context.pointer, key) == 1, SSL_CTX_check_private_key(context.pointer) == 1 else {
            throw configurationError("the server's private key does not match its certificate")
        }
        return context
    }

    /// Every certificate in `pem`, in order; the caller frees them.
    static func certificates(inPEM pem: [UInt8]) -> [OpaquePointer] {
        defer { ERR_clear_error() }
        return pem.withUnsafeBytes { raw in
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { BIO_free(bio) }
            var found: [OpaquePointer] = []
            while found.count < 64, let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                found.append(certificate)
            }
            return found
        }
    }

    private static func make(_ method: OpaquePointer?, role: WebSocketRole) throws(WebSocketError) -> TLSContext {
        guard let pointer = SSL_CTX_new(method) else { throw configurationError("OpenSSL made no TLS context") }
        let context = TLSContext(pointer: pointer, role: role)
        guard ftw_SSL_CTX_set_min_tls12(pointer) == 1 else { throw configurationError("TLS 1.2 is not available") }
        return context
    }

    private static func pemText(of root: TLSConfiguration.TrustRoots) throws(WebSocketError) -> ([UInt8], String) {
        switch root {
        case .pemBytes(let bytes):
            return (bytes, "the trust root given as PEM")
        case .pemFile(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw configurationError("the CA file \(path) cannot be read")
            }
            return (Array(data), "the CA file \(path)")
        }
    }

    private static func configurationError(_ message: String) -> WebSocketError {
        ERR_clear_error()
        return WebSocketError(.tlsConfiguration, message)
    }
}
#endif
