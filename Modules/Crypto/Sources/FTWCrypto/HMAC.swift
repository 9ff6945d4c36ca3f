#if canImport(CryptoKit)
import CryptoKit
#else
import CFTWOpenSSL
#endif

/// HMAC-SHA256: the building block of HKDF, which Noise and the rendezvous handle derive their keys with.
public enum HMAC {
    /// The 32-byte HMAC-SHA256 of `message` under `key` (any key length, as RFC 2104 allows).
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        let code = CryptoKit.HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return Array(code)
        #else
        _ = LibCrypto.ready
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                output.withUnsafeMutableBufferPointer { output in
                    CFTWOpenSSL.HMAC(
                        EVP_sha256(),
                        key.baseAddress,
                        Int32(key.count),
                        message.baseAddress,
                        message.count,
                        output.baseAddress,
                        &length
                    )
                }
            }
        }
        precondition(result != nil && length == 32, "HMAC-SHA256 is always available in libcrypto")
        return output
        #endif
    }
}
