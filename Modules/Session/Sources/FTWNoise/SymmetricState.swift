import FTWCrypto

/// Noise's SymmetricState (with its CipherState folded in): the chaining key, the transcript hash and the current
/// handshake key. A value, so a handshake step can work on a copy and keep it only if the step succeeds.
struct SymmetricState: Sendable {
    /// The transcript hash `h`, which ends as the session's handshake hash.
    private(set) var hash: [UInt8]
    private var chainingKey: [UInt8]
    private var key: [UInt8]?
    private var counter: UInt64 = 0

    /// Starts from the protocol name used as `h` as is: it is exactly 32 bytes, so Noise does not hash it.
    init(protocolName: [UInt8]) {
        hash = protocolName
        chainingKey = protocolName
    }

    /// Folds `data` into the transcript.
    mutating func mixHash(_ data: [UInt8]) {
        hash = SHA256.hash(hash + data)
    }

    /// Folds a Diffie-Hellman result into the chaining key and takes a fresh handshake key from it.
    mutating func mixKey(_ inputKeyMaterial: [UInt8]) {
        let (nextChainingKey, nextKey) = Self.deriveTwo(chainingKey: chainingKey, inputKeyMaterial)
        chainingKey = nextChainingKey
        key = nextKey
        counter = 0
    }

    /// Encrypts `plaintext` bound to the transcript so far, then adds the ciphertext to it.
    mutating func encryptAndHash(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let ciphertext = try NoiseCipher.seal(plaintext, key: currentKey(), counter: counter, associatedData: hash)
        counter += 1
        mixHash(ciphertext)
        return ciphertext
    }

    /// Decrypts `ciphertext` bound to the transcript so far, then adds the ciphertext to it.
    mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let plaintext = try NoiseCipher.open(ciphertext, key: currentKey(), counter: counter, associatedData: hash)
        counter += 1
        mixHash(ciphertext)
        return plaintext
    }

    /// The two transport keys: the initiator's sending key first.
    func split() -> (first: [UInt8], second: [UInt8]) {
        Self.deriveTwo(chainingKey: chainingKey, [])
    }

    /// Noise's two-output HKDF: RFC 5869 with the chaining key as salt, empty info, 64 bytes cut in two.
    private static func deriveTwo(chainingKey: [UInt8], _ inputKeyMaterial: [UInt8]) -> ([UInt8], [UInt8]) {
        let output = HKDF.sha256(ikm: inputKeyMaterial, salt: chainingKey, info: [], outputLength: 64)
        return (Array(output.prefix(32)), Array(output.suffix(32)))
    }

    /// IK mixes a key (`es`) before its first encryption, so a missing key is a bug in the pattern code.
    private func currentKey() -> [UInt8] {
        guard let key else { preconditionFailure("Noise IK encrypts only after es has mixed a key") }
        return key
    }
}
