#if canImport(CryptoKit)
import CryptoKit
import Foundation

/// CryptoKit's AES-GCM and ChaChaPoly behind ``AEADAlgorithm``.
enum AEADBackend {
    static func seal(
        _ algorithm: AEADAlgorithm,
        _ plaintext: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let key = SymmetricKey(data: key)
        do {
            switch algorithm {
            case .aes256GCM:
                let box = try AES.GCM.seal(
                    plaintext,
                    using: key,
                    nonce: AES.GCM.Nonce(data: nonce),
                    authenticating: associatedData
                )
                return Array(box.ciphertext) + Array(box.tag)
            case .chaCha20Poly1305:
                let box = try ChaChaPoly.seal(
                    plaintext,
                    using: key,
                    nonce: ChaChaPoly.Nonce(data: nonce),
                    authenticating: associatedData
                )
                return Array(box.ciphertext) + Array(box.tag)
            }
        } catch {
            throw CryptoError(.backend, "CryptoKit refused to seal: \(error)")
        }
    }

    static func open(
        _ algorithm: AEADAlgorithm,
        _ sealed: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let key = SymmetricKey(data: key)
        let ciphertext = sealed.dropLast(AEADAlgorithm.tagSize)
        let tag = sealed.suffix(AEADAlgorithm.tagSize)
        do {
            switch algorithm {
            case .aes256GCM:
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                return Array(try AES.GCM.open(box, using: key, authenticating: associatedData))
            case .chaCha20Poly1305:
                let box = try ChaChaPoly.SealedBox(
                    nonce: ChaChaPoly.Nonce(data: nonce),
                    ciphertext: ciphertext,
                    tag: tag
                )
                return Array(try ChaChaPoly.open(box, using: key, authenticating: associatedData))
            }
        } catch {
            throw CryptoError(.authenticationFailed, "the tag does not match")
        }
    }
}
#else
import COpenSSL

/// libcrypto's EVP AEAD interface behind ``AEADAlgorithm``.
enum AEADBackend {
    private static let setIVLength: Int32 = 0x9  // EVP_CTRL_AEAD_SET_IVLEN
    private static let getTag: Int32 = 0x10  // EVP_CTRL_AEAD_GET_TAG
    private static let setTag: Int32 = 0x11  // EVP_CTRL_AEAD_SET_TAG

    static func seal(
        _ algorithm: AEADAlgorithm,
        _ plaintext: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let context = try Context(algorithm, key: key, nonce: nonce, encrypting: true)
        defer { context.free() }
        try context.update(associatedData: associatedData)
        var output = try context.update(plaintext)
        try context.finish()
        var tag = [UInt8](repeating: 0, count: AEADAlgorithm.tagSize)
        guard EVP_CIPHER_CTX_ctrl(context.pointer, getTag, Int32(tag.count), &tag) == 1 else {
            throw CryptoError(.backend, "libcrypto did not hand out the tag")
        }
        output += tag
        return output
    }

    static func open(
        _ algorithm: AEADAlgorithm,
        _ sealed: [UInt8],
        key: [UInt8],
        nonce: [UInt8],
        associatedData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let context = try Context(algorithm, key: key, nonce: nonce, encrypting: false)
        defer { context.free() }
        var tag = Array(sealed.suffix(AEADAlgorithm.tagSize))
        guard EVP_CIPHER_CTX_ctrl(context.pointer, setTag, Int32(tag.count), &tag) == 1 else {
            throw CryptoError(.backend, "libcrypto did not take the tag")
        }
        try context.update(associatedData: associatedData)
        let output = try context.update(Array(sealed.dropLast(AEADAlgorithm.tagSize)))
        do {
            try context.finish()
        } catch {
            throw CryptoError(.authenticationFailed, "the tag does not match")
        }
        return output
    }

    /// One EVP cipher context, keyed and with its nonce set.
    private struct Context {
        let pointer: OpaquePointer

        init(_ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], encrypting: Bool) throws(CryptoError) {
            _ = LibCrypto.ready
            guard let pointer = EVP_CIPHER_CTX_new() else {
                throw CryptoError(.backend, "libcrypto could not make a cipher context")
            }
            self.pointer = pointer
            let cipher = algorithm == .aes256GCM ? EVP_aes_256_gcm() : EVP_chacha20_poly1305()
            let mode: Int32 = encrypting ? 1 : 0
            guard EVP_CipherInit_ex(pointer, cipher, nil, nil, nil, mode) == 1,
                EVP_CIPHER_CTX_ctrl(pointer, AEADBackend.setIVLength, Int32(nonce.count), nil) == 1,
                EVP_CipherInit_ex(pointer, nil, nil, key, nonce, mode) == 1
            else {
                EVP_CIPHER_CTX_free(pointer)
                throw CryptoError(.backend, "libcrypto refused the key or nonce")
            }
        }

        func update(associatedData: [UInt8]) throws(CryptoError) {
            guard !associatedData.isEmpty else { return }
            var length: Int32 = 0
            guard EVP_CipherUpdate(pointer, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                throw CryptoError(.backend, "libcrypto refused the associated data")
            }
        }

        func update(_ input: [UInt8]) throws(CryptoError) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: input.count + AEADAlgorithm.tagSize)
            var length: Int32 = 0
            guard input.isEmpty || EVP_CipherUpdate(pointer, &output, &length, input, Int32(input.count)) == 1 else {
                throw CryptoError(.backend, "libcrypto refused the input")
            }
            return Array(output.prefix(Int(length)))
        }

        func finish() throws(CryptoError) {
            var scratch = [UInt8](repeating: 0, count: AEADAlgorithm.tagSize)
            var length: Int32 = 0
            guard EVP_CipherFinal_ex(pointer, &scratch, &length) == 1 else {
                ERR_clear_error()
                throw CryptoError(.authenticationFailed, "libcrypto refused to finish")
            }
        }

        func free() { EVP_CIPHER_CTX_free(pointer) }
    }
}
#endif
