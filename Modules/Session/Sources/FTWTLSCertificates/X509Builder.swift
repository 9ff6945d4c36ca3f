#if canImport(CFTWOpenSSL)
import CFTWOpenSSL
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The libcrypto calls behind ``CertificateAuthority``: keys, certificates, extensions and PEM.
enum X509Builder {
    /// Makes a new CA with a fresh key.
    ///
    /// - Throws: ``CertificateError`` when OpenSSL refuses a step.
    static func makeAuthority(
        commonName: String,
        validity: CertificateAuthority.Validity
    ) throws(CertificateError) -> CertificateAndKey {
        let key = try makeKey()
        defer { EVP_PKEY_free(key) }
        let certificate = try build(
            commonName: commonName,
            publicKey: key,
            issuer: nil,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ],
            validity: validity
        )
        defer { X509_free(certificate) }
        return try pem(certificate: certificate, key: key)
    }

    /// A server certificate for `hosts` (DNS names or IP literals), signed by this CA.
    ///
    /// - Throws: ``CertificateError`` when the CA's PEM cannot be read or OpenSSL refuses a step.
    static func issue(
        by root: CertificateAndKey,
        commonName: String,
        hosts: [String],
        usage: CertificateAuthority.Usage,
        validity: CertificateAuthority.Validity
    ) throws(CertificateError) -> CertificateAndKey {
        let issuerCertificate = try readCertificate(root.certificatePEM)
        defer { X509_free(issuerCertificate) }
        let issuerKey = try readKey(root.privateKeyPEM)
        defer { EVP_PKEY_free(issuerKey) }
        let key = try makeKey()
        defer { EVP_PKEY_free(key) }
        let certificate = try build(
            commonName: commonName,
            publicKey: key,
            issuer: (issuerCertificate, issuerKey),
            extensions: leafExtensions(hosts: hosts, usage: usage) + [(NID_authority_key_identifier, "keyid:always")],
            validity: validity
        )
        defer { X509_free(certificate) }
        return try pem(certificate: certificate, key: key)
    }

    /// A leaf for `hosts` that signs itself: no CA vouches for it, so a verifying client must refuse it.
    ///
    /// - Throws: ``CertificateError`` when OpenSSL refuses a step.
    static func selfSignedLeaf(
        hosts: [String],
        validity: CertificateAuthority.Validity
    ) throws(CertificateError) -> CertificateAndKey {
        let key = try makeKey()
        defer { EVP_PKEY_free(key) }
        let certificate = try build(
            commonName: hosts.first ?? "self-signed",
            publicKey: key,
            issuer: nil,
            extensions: leafExtensions(hosts: hosts, usage: .serverAuthentication),
            validity: validity
        )
        defer { X509_free(certificate) }
        return try pem(certificate: certificate, key: key)
    }

    /// The extensions of a leaf naming `hosts` for `usage`; no subjectAltName at all when `hosts` is empty.
    static func leafExtensions(hosts: [String], usage: CertificateAuthority.Usage) -> [(Int32, String)] {
        let names = hosts.map { isIPLiteral($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        let purpose = usage == .serverAuthentication ? "serverAuth" : "clientAuth"
        let common: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, purpose), (NID_subject_key_identifier, "hash"),
        ]
        return hosts.isEmpty ? common : common + [(NID_subject_alt_name, names)]
    }

    static func makeKey() throws(CertificateError) -> OpaquePointer {
        guard let key = ftw_generate_p256_key() else { throw failure("no P-256 key could be made") }
        return key
    }

    /// A signed certificate; self-signed when `issuer` is nil.
    static func build(
        commonName: String,
        publicKey: OpaquePointer,
        issuer: (certificate: OpaquePointer, key: OpaquePointer)?,
        extensions: [(Int32, String)],
        validity: CertificateAuthority.Validity
    ) throws(CertificateError) -> OpaquePointer {
        guard let certificate = X509_new() else { throw failure("no certificate object") }
        var generator = SystemRandomNumberGenerator()
        let serial = Int.random(in: 1...Int.max, using: &generator)
        let subject = X509_get_subject_name(certificate)
        let made =
            X509_set_version(certificate, 2) == 1
            && ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial) == 1
            && ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(validity.notBefore)) != nil
            && ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(validity.notAfter)) != nil
            && X509_set_pubkey(certificate, publicKey) == 1
            && X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1
            && X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0.certificate) } ?? subject) == 1
            && extensions.allSatisfy { nid, value in
                ftw_X509_add_extension(certificate, issuer?.certificate ?? certificate, nid, value) == 1
            }
            && X509_sign(certificate, issuer?.key ?? publicKey, EVP_sha256()) > 0
        guard made else {
            X509_free(certificate)
            throw failure("the certificate for \(commonName) could not be made")
        }
        return certificate
    }

    static func pem(certificate: OpaquePointer, key: OpaquePointer) throws(CertificateError) -> CertificateAndKey {
        let certificatePEM = try write { PEM_write_bio_X509($0, certificate) }
        let keyPEM = try write { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        return CertificateAndKey(certificatePEM: certificatePEM, privateKeyPEM: keyPEM)
    }

    /// Writes `pem` into `folder` as `<subject hash>.<first free suffix>`; returns the path.
    static func writeHashed(_ pem: [UInt8], into folder: String) throws(CertificateError) -> String {
        let certificate = try readCertificate(pem)
        defer { X509_free(certificate) }
        let name = String(format: "%08lx", X509_subject_name_hash(certificate))
        let paths = (0..<16).lazy.map { "\(folder)/\(name).\($0)" }
        guard let path = paths.first(where: { !FileManager.default.fileExists(atPath: $0) }),
            FileManager.default.createFile(atPath: path, contents: Data(pem))
        else { throw CertificateError("the CA could not be written into \(folder) under its hash \(name)") }
        return path
    }

    static func readCertificate(_ pem: [UInt8]) throws(CertificateError) -> OpaquePointer {
        guard let certificate = read(pem, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw failure("the CA certificate is not PEM")
        }
        return certificate
    }

    static func readKey(_ pem: [UInt8]) throws(CertificateError) -> OpaquePointer {
        guard let key = read(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw failure("the CA key is not a PEM private key")
        }
        return key
    }

    private static func read(_ pem: [UInt8], _ parse: (OpaquePointer?) -> OpaquePointer?) -> OpaquePointer? {
        pem.withUnsafeBytes { raw in
            let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            defer { BIO_free(bio) }
            return parse(bio)
        }
    }

    private static func write(_ body: (OpaquePointer) -> Int32) throws(CertificateError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure("no memory buffer") }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { throw failure("PEM could not be written") }
        let count = Int(BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(count)) }
        return Array(bytes.prefix(max(0, Int(read))))
    }

    private static func failure(_ message: String) -> CertificateError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return CertificateError(message) }
        return CertificateError("\(message): \(String(cString: reason))")
    }

    private static func isIPLiteral(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
#endif
