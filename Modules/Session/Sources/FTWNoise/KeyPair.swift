import FTWCrypto

/// An X25519 private key with its public key, checked and imported once when a handshake is made, so each of the
/// handshake's two exchanges with it costs one scalar multiplication, not two.
struct KeyPair: Sendable {
    private let privateKey: X25519.PrivateKey

    /// The public half, sent in (or known before) the handshake.
    var publicKey: [UInt8] { privateKey.publicKey }

    /// The pair of `privateKey`, or of a fresh random key when it is nil (the production ephemeral).
    ///
    /// - Throws: `NoiseError` with `.invalidKey` when the key is not 32 bytes.
    init(privateKey: [UInt8]?, role: String) throws(NoiseError) {
        do {
            self.privateKey = try X25519.PrivateKey(rawRepresentation: privateKey ?? X25519.generatePrivateKey())
        } catch {
            throw NoiseError(error, while: "reading the \(role) key")
        }
    }

    /// The Diffie-Hellman of this key with `publicKey`.
    ///
    /// - Throws: `NoiseError` with `.weakKey` when the result is all zeros (a low-order public key).
    func agree(with publicKey: [UInt8]) throws(NoiseError) -> [UInt8] {
        do {
            return try privateKey.sharedSecret(with: publicKey)
        } catch {
            throw NoiseError(error, while: "Diffie-Hellman")
        }
    }
}
