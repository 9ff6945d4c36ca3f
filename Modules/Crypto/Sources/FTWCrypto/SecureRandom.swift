#if canImport(CryptoKit)
import Security
#else
import CFTWOpenSSL
#endif

/// Random bytes from the operating system's cryptographic generator: keys, nonces and ephemeral secrets.
public enum SecureRandom {
    /// `count` random bytes.
    ///
    /// - Important: A failure of the system generator is unrecoverable for a client that must not reuse nonces,
    ///   so it stops the process rather than returning weak bytes.
    public static func bytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        #if canImport(CryptoKit)
        let status = SecRandomCopyBytes(kSecRandomDefault, count, &bytes)
        precondition(status == errSecSuccess, "the system random generator failed")
        #else
        _ = LibCrypto.ready
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(status == 1, "the system random generator failed")
        #endif
        return bytes
    }
}
