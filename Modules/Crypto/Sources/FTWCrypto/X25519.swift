import FTWBus

/// X25519 key agreement: the Diffie-Hellman of Noise IK and of a device's static identity.
///
/// The functions here import the private key for each call; a party that uses one key several times keeps a
/// ``PrivateKey`` instead.
public enum X25519 {
    /// The size of a private key, a public key and a shared secret.
    public static let keySize = 32

    /// A fresh random private key.
    public static func generatePrivateKey() -> [UInt8] {
        SecureRandom.bytes(count: keySize)
    }

    /// The public key of `privateKey`.
    ///
    /// - Throws: `CryptoError` with `.invalidKeySize` when the key is not 32 bytes.
    public static func publicKey(privateKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        try PrivateKey(rawRepresentation: privateKey).publicKey
    }

    /// The shared secret of `privateKey` and `publicKey`.
    ///
    /// - Throws: `CryptoError` with `.weakSharedSecret` when the result is all zeros (a low-order public key),
    ///   which Noise requires a party to refuse, or `.invalidKeySize` for keys that are not 32 bytes.
    public static func sharedSecret(privateKey: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        try PrivateKey(rawRepresentation: privateKey).sharedSecret(with: publicKey)
    }

    static func checkSize(_ key: [UInt8], _ what: String) throws(CryptoError) {
        guard key.count == keySize else {
            throw CryptoError(.invalidKeySize, "an X25519 \(what) is 32 bytes, not \(key.count)")
        }
    }
}
