#if !canImport(CryptoKit)
import CFTWOpenSSL

/// Opens ChaCha20-Poly1305 messages (RFC 8439 §2.8) tag first: the Poly1305 tag is checked before a byte is
/// decrypted, and only a message whose tag matches is decrypted. Both primitives are libcrypto's: its ChaCha20
/// makes block 0 (the message's Poly1305 key) and, on a match, decrypts from block 1; its `EVP_MAC` "POLY1305"
/// makes the tag (``Poly1305``).
///
/// A phone in a relay room is handed every phone's frames and refuses all but its own; libcrypto's AEAD decrypts
/// a message while it authenticates it, so each refusal paid for the whole ChaCha20 pass and the provider layers
/// around it. Checking first costs a refusal one ChaCha20 block and the Poly1305 pass
/// (`ftw-bench frame --real ws --foreign`, docs/benchmarks.md), and costs an accepted message no more than the
/// AEAD did. The verdict is the AEAD's: the same key, nonce, associated data and ciphertext give the same tag, and
/// `CRYPTO_memcmp` compares it in the same time whatever the bytes.
///
/// Its contexts are kept for every message and used by one caller at a time: the opener belongs to one
/// ``AEADCipher``, which cannot be copied and opens only in `mutating` methods.
final class ChaChaPolyOpener {
    /// libcrypto's plain ChaCha20 under the key, given a fresh counter and nonce for each message.
    private let stream: OpaquePointer
    private let poly1305: Poly1305

    /// An opener under the 32-byte `key`, or nil when libcrypto cannot make its contexts.
    init?(key: [UInt8]) {
        _ = LibCrypto.ready
        guard key.count == AEADAlgorithm.keySize, let poly1305 = Poly1305(), let stream = EVP_CIPHER_CTX_new() else {
            return nil
        }
        guard EVP_CipherInit_ex(stream, EVP_chacha20(), nil, key, nil, 0) == 1 else {
            EVP_CIPHER_CTX_free(stream)
            ERR_clear_error()
            return nil
        }
        self.stream = stream
        self.poly1305 = poly1305
    }

    deinit {
        EVP_CIPHER_CTX_free(stream)
    }

    /// Decrypts the `count` bytes that lead `sealed` (ciphertext, then the 16-byte tag) into `output` if the tag
    /// matches `nonce` and `associatedData`; says whether it did. `output` is left untouched on a refusal.
    func open(
        _ sealed: UnsafeBufferPointer<UInt8>,
        count: Int,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        guard nonce.count == AEADAlgorithm.nonceSize, count >= 0, sealed.count == count + AEADAlgorithm.tagSize else {
            return false
        }
        let bytes = UnsafeRawBufferPointer(sealed)
        var tag: (UInt64, UInt64) = (0, 0)
        let computed = withUnsafeMutableBytes(of: &tag) { tag in
            self.tag(of: UnsafeRawBufferPointer(rebasing: bytes[..<count]), nonce, associatedData, into: tag)
        }
        guard computed else {
            ERR_clear_error()
            return false
        }
        let given = bytes.baseAddress! + count
        guard withUnsafeBytes(of: &tag, { CRYPTO_memcmp($0.baseAddress, given, $0.count) }) == 0 else { return false }
        return decrypt(bytes.baseAddress, count: count, into: output)
    }

    /// Writes the AEAD's tag of `ciphertext` and `associatedData` under `nonce` to `tag`; false when libcrypto
    /// refuses.
    private func tag(
        of ciphertext: UnsafeRawBufferPointer,
        _ nonce: UnsafeRawBufferPointer,
        _ associatedData: UnsafeRawBufferPointer,
        into tag: UnsafeMutableRawBufferPointer
    ) -> Bool {
        withBlockZero(nonce: nonce) { block in poly1305.start(key: UnsafeRawBufferPointer(rebasing: block[..<32])) }
            && poly1305.absorbPadded(associatedData)
            && poly1305.absorbPadded(ciphertext)
            && poly1305.absorbLengths(associatedData: associatedData.count, ciphertext: ciphertext.count)
            && poly1305.tag(into: tag)
    }

    /// Hands `body` block 0 of the stream under `nonce` (whose first 32 bytes are the message's Poly1305 key,
    /// §2.6), and wipes it afterwards; false, without calling `body`, when libcrypto refuses. It leaves the stream
    /// at block 1, where the ciphertext starts.
    func withBlockZero(nonce: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        // The stream's 16-byte IV: block counter 0 (4 bytes, little-endian), then the message's 12-byte nonce.
        var iv: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &iv) { iv in
            UnsafeMutableRawBufferPointer(rebasing: iv[4...]).copyMemory(from: nonce)
        }
        // A block of zeros, encrypted in place: the key stream itself.
        var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        let stream = stream
        return withUnsafeMutableBytes(of: &block) { block in
            defer { OPENSSL_cleanse(block.baseAddress, block.count) }
            var length: Int32 = 0
            let bytes = block.baseAddress?.assumingMemoryBound(to: UInt8.self)
            let made = withUnsafeBytes(of: &iv) { iv in
                EVP_CipherInit_ex(stream, nil, nil, nil, iv.baseAddress?.assumingMemoryBound(to: UInt8.self), 0) == 1
                    && EVP_CipherUpdate(stream, bytes, &length, bytes, Int32(block.count)) == 1
            }
            return made && length == Int32(block.count) && body(UnsafeRawBufferPointer(block))
        }
    }

    /// Decrypts from where ``withBlockZero(nonce:_:)`` left the stream (block 1) into `output`.
    private func decrypt(
        _ ciphertext: UnsafeRawPointer?,
        count: Int,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        guard count > 0 else { return true }
        var length: Int32 = 0
        guard
            EVP_CipherUpdate(
                stream,
                output.baseAddress,
                &length,
                ciphertext?.assumingMemoryBound(to: UInt8.self),
                Int32(count)
            ) == 1, length == Int32(count)
        else {
            ERR_clear_error()
            return false
        }
        return true
    }
}
#endif
