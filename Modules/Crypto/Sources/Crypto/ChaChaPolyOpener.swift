#if !canImport(CryptoKit)
import COpenSSL

/// Opens ChaCha20-Poly1305 messages (RFC 8439 §2.8) tag first: the Poly1305 tag is checked before a byte is
/// decrypted, and only a message whose tag matches is decrypted, by libcrypto's ChaCha20 from block 1.
///
/// A phone in a relay room is handed every phone's frames and refuses all but its own; libcrypto's AEAD decrypts
/// a message while it authenticates it, so each refusal paid for the whole ChaCha20 pass and the provider layers
/// around it. Checking first costs a refusal one ChaCha20 block and the Poly1305 pass, about half as much
/// (`ftw-bench frame --real ws --foreign`, docs/benchmarks.md), and costs an accepted message no more than the
/// AEAD did. The verdict is the AEAD's: the same key, nonce, associated data and ciphertext give the same tag, and
/// the comparison takes the same time whatever the bytes.
final class ChaChaPolyOpener {
    private var block: ChaCha20Block
    /// libcrypto's plain ChaCha20 under the key, given a fresh counter and nonce for each message.
    private let stream: OpaquePointer

    /// An opener under the 32-byte `key`, or nil when libcrypto cannot make its stream context.
    init?(key: [UInt8]) {
        _ = LibCrypto.ready
        guard key.count == AEADAlgorithm.keySize, let stream = EVP_CIPHER_CTX_new() else { return nil }
        guard EVP_CipherInit_ex(stream, EVP_chacha20(), nil, key, nil, 0) == 1 else {
            EVP_CIPHER_CTX_free(stream)
            ERR_clear_error()
            return nil
        }
        self.stream = stream
        block = key.withUnsafeBytes(ChaCha20Block.init(key:))
    }

    deinit {
        withUnsafeMutableBytes(of: &block.key) { OPENSSL_cleanse($0.baseAddress, $0.count) }
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
        let key = block.polyKey(nonce: nonce)
        var poly = Poly1305(r: key.r, s: key.s)
        let bytes = UnsafeRawBufferPointer(sealed)
        poly.absorbPadded(associatedData)
        poly.absorbPadded(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
        poly.absorbLengths(associatedData: associatedData.count, ciphertext: count)
        let tag = poly.tag()
        let given0 = bytes.loadUnaligned(fromByteOffset: count, as: UInt64.self).littleEndian
        let given1 = bytes.loadUnaligned(fromByteOffset: count + 8, as: UInt64.self).littleEndian
        guard (tag.0 ^ given0) | (tag.1 ^ given1) == 0 else { return false }
        return decrypt(bytes.baseAddress, count: count, nonce: nonce, into: output)
    }

    private func decrypt(
        _ ciphertext: UnsafeRawPointer?,
        count: Int,
        nonce: UnsafeRawBufferPointer,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        guard count > 0 else { return true }
        // The stream's 16-byte IV: block counter 1 (4 bytes, little-endian), then the message's 12-byte nonce.
        var iv: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &iv) { iv in
            iv.storeBytes(of: UInt32(1).littleEndian, as: UInt32.self)
            UnsafeMutableRawBufferPointer(rebasing: iv[4...]).copyMemory(from: nonce)
        }
        var length: Int32 = 0
        let stream = stream
        let done = withUnsafeBytes(of: &iv) { iv in
            EVP_CipherInit_ex(stream, nil, nil, nil, iv.baseAddress?.assumingMemoryBound(to: UInt8.self), 0) == 1
                && EVP_CipherUpdate(
                    stream,
                    output.baseAddress,
                    &length,
                    ciphertext?.assumingMemoryBound(to: UInt8.self),
                    Int32(count)
                ) == 1
        }
        guard done, length == Int32(count) else {
            ERR_clear_error()
            return false
        }
        return true
    }
}
#endif
