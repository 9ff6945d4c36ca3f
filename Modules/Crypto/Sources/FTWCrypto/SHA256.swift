#if canImport(CryptoKit)
import CryptoKit
#else
import CFTWOpenSSL
#endif

/// SHA-256: the hash of Noise's handshake transcript, of the site id, and of HMAC and HKDF below.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(CryptoKit.SHA256.hash(data: bytes))
        #else
        _ = LibCrypto.ready
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        precondition(status == 1 && length == 32, "SHA-256 is always available in libcrypto")
        return digest
        #endif
    }
}
