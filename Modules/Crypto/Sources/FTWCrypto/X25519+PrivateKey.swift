#if canImport(CryptoKit)
import CryptoKit
#else
import CFTWOpenSSL
import FTWBus
#endif

extension X25519 {
    /// An X25519 private key imported into the backend once, for a party that does several key exchanges with it.
    ///
    /// Importing a raw private key makes libcrypto compute its public key, a full scalar multiplication, as costly
    /// as the exchange itself; a Noise handshake does two exchanges with each of its keys, so keeping the imported
    /// key halves its Diffie-Hellman work.
    public final class PrivateKey: @unchecked Sendable {
        // Unchecked: the backend key is never changed after import, and libcrypto allows concurrent derives from
        // one EVP_PKEY (each gets its own context).

        /// The public key of this private key, 32 bytes.
        public let publicKey: [UInt8]
        #if canImport(CryptoKit)
        private let key: Curve25519.KeyAgreement.PrivateKey
        #else
        private let key: OpaquePointer
        #endif

        /// Imports the 32-byte `rawRepresentation`.
        ///
        /// - Throws: `CryptoError` with `.invalidKeySize` when the key is not 32 bytes.
        public init(rawRepresentation: [UInt8]) throws(CryptoError) {
            try X25519.checkSize(rawRepresentation, "private key")
            #if canImport(CryptoKit)
            do {
                key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: rawRepresentation)
            } catch {
                throw CryptoError(.backend, "CryptoKit refused the X25519 private key", cause: error)
            }
            publicKey = Array(key.publicKey.rawRepresentation)
            #else
            _ = LibCrypto.ready
            guard
                let key = EVP_PKEY_new_raw_private_key(
                    EVP_PKEY_X25519,
                    nil,
                    rawRepresentation,
                    rawRepresentation.count
                )
            else {
                throw CryptoError(.backend, "libcrypto refused the X25519 private key")
            }
            var length = X25519.keySize
            var publicKey = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_get_raw_public_key(key, &publicKey, &length) == 1, length == X25519.keySize else {
                EVP_PKEY_free(key)
                throw CryptoError(.backend, "libcrypto could not export the X25519 public key")
            }
            self.key = key
            self.publicKey = publicKey
            #endif
        }

        #if !canImport(CryptoKit)
        deinit { EVP_PKEY_free(key) }
        #endif

        /// The shared secret of this key and `publicKey`.
        ///
        /// - Throws: `CryptoError` with `.weakSharedSecret` when the result is all zeros (a low-order public key),
        ///   which Noise requires a party to refuse, or `.invalidKeySize` for a key that is not 32 bytes.
        public func sharedSecret(with publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
            try X25519.checkSize(publicKey, "public key")
            let secret = try derive(publicKey)
            guard secret.contains(where: { $0 != 0 }) else {
                throw CryptoError(.weakSharedSecret, "the X25519 shared secret is all zeros")
            }
            return secret
        }

        #if canImport(CryptoKit)
        private func derive(_ publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
            do {
                let theirs = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
                let secret = try key.sharedSecretFromKeyAgreement(with: theirs)
                return secret.withUnsafeBytes { Array($0) }
            } catch {
                throw CryptoError(.weakSharedSecret, "CryptoKit refused the X25519 exchange", cause: error)
            }
        }
        #else
        private func derive(_ publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
            guard let theirs = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, publicKey, publicKey.count) else {
                throw CryptoError(.backend, "libcrypto refused the X25519 public key")
            }
            defer { EVP_PKEY_free(theirs) }
            guard let context = EVP_PKEY_CTX_new(key, nil) else {
                throw CryptoError(.backend, "libcrypto could not make a key-agreement context")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var length = X25519.keySize
            var secret = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, theirs) == 1 else {
                throw CryptoError(.backend, "libcrypto refused the X25519 peer key")
            }
            // libcrypto itself refuses an all-zero result, which is the low-order case Noise forbids.
            guard EVP_PKEY_derive(context, &secret, &length) == 1, length == X25519.keySize else {
                ERR_clear_error()
                throw CryptoError(.weakSharedSecret, "the X25519 exchange produced no usable secret")
            }
            return secret
        }
        #endif
    }
}
