#if !canImport(CryptoKit)
import CFTWOpenSSL

/// Poly1305 (RFC 8439 §2.5) over the message layout of ChaCha20-Poly1305 (§2.8): libcrypto's `EVP_MAC`
/// "POLY1305", given a message's one-time key, then the associated data and the ciphertext each padded to whole
/// 16-byte blocks, then the closing block of their lengths.
///
/// It exists so a receiver can check a message's tag before it decrypts a byte (see ``ChaChaPolyOpener``):
/// libcrypto's AEAD authenticates only while it decrypts. One context serves every message of its owner, since
/// libcrypto resets it with each key, and it is freed (libcrypto wipes it) with the value.
struct Poly1305: ~Copyable {
    /// libcrypto's Poly1305, fetched once for the process: a fetch looks the name up in the provider's tables, which
    /// costs more than authenticating a frame. A fetched algorithm is reference-counted and never changed, so
    /// libcrypto lets every thread use it at once.
    private nonisolated(unsafe) static let algorithm: OpaquePointer? = {
        _ = LibCrypto.ready
        return EVP_MAC_fetch(nil, "POLY1305", nil)
    }()

    /// Zeros for the padding: the AEAD pads to 16 bytes, so at most 15 are absorbed at once.
    private static let zeros = [UInt8](repeating: 0, count: 16)

    private let context: OpaquePointer

    /// A context for libcrypto's Poly1305, or nil when libcrypto cannot make one.
    init?() {
        guard let algorithm = Self.algorithm, let context = EVP_MAC_CTX_new(algorithm) else {
            ERR_clear_error()
            return nil
        }
        self.context = context
    }

    deinit {
        EVP_MAC_CTX_free(context)
    }

    /// Starts a message under the 32-byte one-time key `r ‖ s`; false when libcrypto refuses.
    func start(key: UnsafeRawBufferPointer) -> Bool {
        EVP_MAC_init(context, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, nil) == 1
    }

    /// Absorbs `bytes` padded with zeros to whole 16-byte blocks (the AEAD's `pad16`); false when libcrypto refuses.
    func absorbPadded(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let padding = (16 - bytes.count % 16) % 16
        return absorb(bytes.baseAddress, count: bytes.count)
            && Self.zeros.withUnsafeBytes { absorb($0.baseAddress, count: padding) }
    }

    /// Absorbs the AEAD's closing block: the lengths of the associated data and of the ciphertext.
    func absorbLengths(associatedData: Int, ciphertext: Int) -> Bool {
        var lengths = (UInt64(associatedData).littleEndian, UInt64(ciphertext).littleEndian)
        return withUnsafeBytes(of: &lengths) { absorb($0.baseAddress, count: $0.count) }
    }

    /// Writes the 16-byte tag of what was absorbed to `tag`; false when libcrypto refuses.
    func tag(into tag: UnsafeMutableRawBufferPointer) -> Bool {
        var length = 0
        let done = EVP_MAC_final(
            context,
            tag.baseAddress?.assumingMemoryBound(to: UInt8.self),
            &length,
            tag.count
        )
        return done == 1 && length == AEADAlgorithm.tagSize
    }

    private func absorb(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        count == 0 || EVP_MAC_update(context, bytes?.assumingMemoryBound(to: UInt8.self), count) == 1
    }
}
#endif
