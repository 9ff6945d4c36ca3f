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

    /// Encrypts `plaintext` and authenticates it together with `associatedData`, with a cipher made for this one
    /// message (see ``AEADCipher`` for many messages under one key).
    ///
    /// - Returns: ciphertext ‖ tag (`plaintext.count + 16` bytes).
    /// - Throws: `CryptoError` when the key or nonce has the wrong size.
    public func seal(
        _ plaintext: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        var cipher = try AEADCipher(self, key: key)
        var sealed: [UInt8] = []
        sealed.reserveCapacity(plaintext.count + Self.tagSize)
        try cipher.seal(plaintext[...], nonce: nonce, associatedData: associatedData[...], appendingTo: &sealed)
        return sealed
    }

    /// Checks the tag and decrypts `sealed` (ciphertext ‖ tag), with a cipher made for this one message.
    ///
    /// - Throws: `CryptoError` with `.authenticationFailed` when the bytes, key, nonce or associated data differ
    ///   from those sealed (including input shorter than a tag), or a size error for the key or nonce.
    public func open(
        _ sealed: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        var cipher = try AEADCipher(self, key: key)
        return try cipher.open(sealed[...], nonce: nonce, associatedData: associatedData[...])
    }
}
