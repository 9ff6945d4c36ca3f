#if canImport(CFTWOpenSSL)
import CFTWOpenSSL

#if canImport(Glibc)
import Glibc
#endif

/// Where a client context finds the system's trusted CAs: looked up on demand in the hashed certificate folder, so a
/// process's first `wss://` dial does not parse the whole CA bundle before its ClientHello.
///
/// `SSL_CTX_set_default_verify_paths` reads the bundle file (`/usr/lib/ssl/cert.pem`, 139 certificates: about
/// 230 M instructions) and adds the folder (`/etc/ssl/certs`) as a lookup. The folder alone holds the same CAs,
/// each under the hash of its subject (`<hash>.0`, made by `update-ca-certificates` / `c_rehash`), and OpenSSL's
/// `X509_LOOKUP_hash_dir` reads only the file a chain's issuer names, when a handshake asks for it, and keeps it in
/// the store. So the folder alone is used when it is hashed and the bundle is the system's own (made from the same
/// CAs by the same tool); the bundle is still read whole, as before, when the folder is not hashed (a system that
/// ships the bundle alone) or when `SSL_CERT_FILE` names another bundle. No CA is trusted that OpenSSL's default
/// paths did not trust, and verification itself (chain, validity, host, SNI) is unchanged.
enum SystemTrustStore {
    /// The places a context reads the system's CAs from.
    struct Location: Sendable, Hashable {
        /// Colon-separated folders of certificates named by subject hash, looked up on demand.
        let folders: String
        /// A bundle read whole when the context is made; nil when the folders hold the same CAs.
        let bundle: String?
    }

    /// Where OpenSSL's defaults look, with `SSL_CERT_DIR` and `SSL_CERT_FILE` overriding them as for OpenSSL; read
    /// once per process, at its first `wss://` dial.
    static let current: Location = {
        let systemBundle = String(cString: X509_get_default_cert_file())
        return location(
            folders: variable(X509_get_default_cert_dir_env()) ?? String(cString: X509_get_default_cert_dir()),
            bundle: variable(X509_get_default_cert_file_env()) ?? systemBundle,
            systemBundle: systemBundle
        )
    }()

    /// Where to read the CAs of `folders` and `bundle` from: the folders alone when one of them is hashed and
    /// `bundle` is `systemBundle` (the same file once links are followed), else the bundle besides.
    static func location(folders: String, bundle: String, systemBundle: String) -> Location {
        let folderSuffices = isHashed(folders) && isSameFile(bundle, systemBundle)
        return Location(folders: folders, bundle: folderSuffices ? nil : bundle)
    }

    /// Makes `store` trust the CAs at `location`.
    ///
    /// - Returns: false when neither the folders nor the bundle could be set up.
    static func install(_ location: Location, in store: OpaquePointer) -> Bool {
        let addedFolders = X509_STORE_load_path(store, location.folders) == 1
        let loadedBundle = location.bundle.map { X509_STORE_load_file(store, $0) == 1 } ?? false
        ERR_clear_error()
        return addedFolders || loadedBundle
    }

    /// The environment variable OpenSSL reads for a path (`SSL_CERT_DIR`, `SSL_CERT_FILE`), as OpenSSL reads it.
    private static func variable(_ name: UnsafePointer<CChar>) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether two paths name one file once their links are followed (`SSL_CERT_FILE` often names the system's own
    /// bundle, `/etc/ssl/certs/ca-certificates.crt` behind `/usr/lib/ssl/cert.pem`).
    private static func isSameFile(_ one: String, _ other: String) -> Bool {
        guard let first = realpath(one, nil) else { return false }
        defer { free(first) }
        guard let second = realpath(other, nil) else { return false }
        defer { free(second) }
        return strcmp(first, second) == 0
    }

    /// Whether one of the colon-separated `folders` holds a certificate under its subject hash (`1a2b3c4d.0`).
    private static func isHashed(_ folders: String) -> Bool {
        folders.split(separator: ":").contains { folder in
            guard let directory = opendir(String(folder)) else { return false }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if isHashName(name) { return true }
            }
            return false
        }
    }

    /// `hhhhhhhh.N`: eight lowercase hex digits, a dot, a decimal suffix (a CRL's `.rN` is not a certificate).
    private static func isHashName(_ name: [UInt8]) -> Bool {
        guard name.count > 9, name[8] == UInt8(ascii: "."),
            name[..<8].allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return false }
        return name[9...].allSatisfy { (48...57).contains($0) }
    }
}
#endif
