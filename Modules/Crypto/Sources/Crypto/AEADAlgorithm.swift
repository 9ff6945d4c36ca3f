/// An authenticated cipher with a 32-byte key, a 12-byte nonce and a 16-byte tag.
///
/// Two are used: ChaCha20-Poly1305 inside Noise (the box's choice) and AES-256-GCM for sealed files (the reference
/// app's choice). Both put the tag after the ciphertext, which is the layout on the wire and on disk.
public enum AEADAlgorithm: Sendable, Hashable {
    /// AES-256-GCM, for sealed files.
    case aes256GCM
    /// ChaCha20-Poly1305 (RFC 8439), for the Noise session.
    case chaCha20Poly1305

    /// Key size in bytes.
    public static let keySize = 32
    /// Nonce size in bytes.
    public static let nonceSize = 12
    /// Tag size in bytes.
    public static let tagSize = 16

    /// Encrypts `plaintext` and authenticates it together with `associatedData`.
    ///
    /// - Returns: ciphertext ‖ tag (`plaintext.count + 16` bytes).
    /// - Throws: `CryptoError` when the key or nonce has the wrong size.
    public func seal(
        _ plaintext: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        try Self.check(key: key, nonce: nonce)
        return try AEADBackend.seal(self, plaintext, key: key, nonce: nonce, associatedData: associatedData)
    }

    /// Checks the tag and decrypts `sealed` (ciphertext ‖ tag).
    ///
    /// - Throws: `CryptoError` with `.authenticationFailed` when the bytes, key, nonce or associated data differ
    ///   from those sealed (including input shorter than a tag), or a size error for the key or nonce.
    public func open(
        _ sealed: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        try Self.check(key: key, nonce: nonce)
        guard sealed.count >= Self.tagSize else {
            throw CryptoError(.authenticationFailed, "\(sealed.count) bytes cannot hold a 16-byte tag")
        }
        return try AEADBackend.open(self, sealed, key: key, nonce: nonce, associatedData: associatedData)
    }

    private static func check(key: [UInt8], nonce: [UInt8]) throws(CryptoError) {
        guard key.count == keySize else {
            throw CryptoError(.invalidKeySize, "an AEAD key is 32 bytes, not \(key.count)")
        }
        guard nonce.count == nonceSize else {
            throw CryptoError(.invalidNonceSize, "an AEAD nonce is 12 bytes, not \(nonce.count)")
        }
    }
}
