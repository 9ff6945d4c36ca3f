#if !canImport(CryptoKit)
import CFTWOpenSSL

/// libcrypto's one-time set-up, made by the first call into this module that reaches libcrypto.
///
/// OpenSSL initialises itself on first use, and by default that reads the system's OpenSSL configuration file
/// (`/usr/lib/ssl/openssl.cnf`), parses it and loads the modules it names: about 1.8 M instructions and a file
/// opened, on a launch's path to its first content (the first sealed file opened). The client needs nothing from
/// that file (its ciphers and curves are fixed), so it is not read. The rest of OpenSSL's first-use work (the
/// provider's algorithms and their legacy names, which certificate checks look up) stays as it is: skipping it
/// would make `EVP_get_digestbynid` fail in a TLS handshake long after launch.
///
/// The first libcrypto user in a process decides: a process whose first OpenSSL call is a TLS context made in the
/// WebSocket module reads the file as before.
enum LibCrypto {
    /// Whether the set-up ran; read before the first libcrypto call of each entry point.
    static let ready: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_LOAD_CONFIG), nil) == 1
}
#endif
