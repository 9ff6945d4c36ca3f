#if canImport(CryptoKit)
import CryptoKit
#else
import COpenSSL
#endif

/// X25519 key agreement: the Diffie-Hellman of Noise IK and of a device's static identity.
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
        try checkSize(privateKey, "private key")
        #if canImport(CryptoKit)
        do {
            let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey)
            return Array(key.publicKey.rawRepresentation)
        } catch {
            throw CryptoError(.backend, "CryptoKit refused the X25519 private key")
        }
        #else
        let key = try OpenSSLKey(privateKey: privateKey)
        defer { key.free() }
        return try key.rawPublicKey()
        #endif
    }

    /// The shared secret of `privateKey` and `publicKey`.
    ///
    /// - Throws: `CryptoError` with `.weakSharedSecret` when the result is all zeros (a low-order public key),
    ///   which Noise requires a party to refuse, or `.invalidKeySize` for keys that are not 32 bytes.
    public static func sharedSecret(privateKey: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        try checkSize(privateKey, "private key")
        try checkSize(publicKey, "public key")
        let secret = try derive(privateKey: privateKey, publicKey: publicKey)
        guard secret.contains(where: { $0 != 0 }) else {
            throw CryptoError(.weakSharedSecret, "the X25519 shared secret is all zeros")
        }
        return secret
    }

    private static func checkSize(_ key: [UInt8], _ what: String) throws(CryptoError) {
        guard key.count == keySize else {
            throw CryptoError(.invalidKeySize, "an X25519 \(what) is 32 bytes, not \(key.count)")
        }
    }

    #if canImport(CryptoKit)
    private static func derive(privateKey: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        do {
            let mine = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey)
            let theirs = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
            let secret = try mine.sharedSecretFromKeyAgreement(with: theirs)
            return secret.withUnsafeBytes { Array($0) }
        } catch {
            throw CryptoError(.weakSharedSecret, "CryptoKit refused the X25519 exchange")
        }
    }
    #else
    private static func derive(privateKey: [UInt8], publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        let mine = try OpenSSLKey(privateKey: privateKey)
        defer { mine.free() }
        let theirs = try OpenSSLKey(publicKey: publicKey)
        defer { theirs.free() }
        guard let context = EVP_PKEY_CTX_new(mine.pointer, nil) else {
            throw CryptoError(.backend, "libcrypto could not make a key-agreement context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var length = keySize
        var secret = [UInt8](repeating: 0, count: keySize)
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, theirs.pointer) == 1 else {
            throw CryptoError(.backend, "libcrypto refused the X25519 peer key")
        }
        // libcrypto itself refuses an all-zero result, which is the low-order case Noise forbids.
        guard EVP_PKEY_derive(context, &secret, &length) == 1, length == keySize else {
            ERR_clear_error()
            throw CryptoError(.weakSharedSecret, "the X25519 exchange produced no usable secret")
        }
        return secret
    }
    #endif
}

#if !canImport(CryptoKit)
/// A raw X25519 key held by libcrypto, freed by its owner.
private struct OpenSSLKey {
    let pointer: OpaquePointer

    init(privateKey: [UInt8]) throws(CryptoError) {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nil, privateKey, privateKey.count) else {
            throw CryptoError(.backend, "libcrypto refused the X25519 private key")
        }
        pointer = key
    }

    init(publicKey: [UInt8]) throws(CryptoError) {
        guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, publicKey, publicKey.count) else {
            throw CryptoError(.backend, "libcrypto refused the X25519 public key")
        }
        pointer = key
    }

    func rawPublicKey() throws(CryptoError) -> [UInt8] {
        var length = X25519.keySize
        var bytes = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_get_raw_public_key(pointer, &bytes, &length) == 1, length == X25519.keySize else {
            throw CryptoError(.backend, "libcrypto could not export the X25519 public key")
        }
        return bytes
    }

    func free() { EVP_PKEY_free(pointer) }
}
#endif
