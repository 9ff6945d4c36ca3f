import Crypto

/// An X25519 private key with its public key, checked once when a handshake is made.
struct KeyPair: Sendable {
    let privateKey: [UInt8]
    let publicKey: [UInt8]

    /// The pair of `privateKey`, or of a fresh random key when it is nil (the production ephemeral).
    ///
    /// - Throws: `NoiseError` with `.invalidKey` when the key is not 32 bytes.
    init(privateKey: [UInt8]?, role: String) throws(NoiseError) {
        let privateKey = privateKey ?? X25519.generatePrivateKey()
        do {
            publicKey = try X25519.publicKey(privateKey: privateKey)
        } catch {
            throw NoiseError(error, while: "reading the \(role) key")
        }
        self.privateKey = privateKey
    }

    /// The Diffie-Hellman of this key with `publicKey`.
    ///
    /// - Throws: `NoiseError` with `.weakKey` when the result is all zeros (a low-order public key).
    func agree(with publicKey: [UInt8]) throws(NoiseError) -> [UInt8] {
        do {
            return try X25519.sharedSecret(privateKey: privateKey, publicKey: publicKey)
        } catch {
            throw NoiseError(error, while: "Diffie-Hellman")
        }
    }
}
