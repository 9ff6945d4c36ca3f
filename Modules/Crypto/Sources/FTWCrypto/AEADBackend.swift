import FTWBus

#if canImport(CryptoKit)
import CryptoKit
import Foundation

/// CryptoKit's AES-GCM and ChaChaPoly behind ``AEADCipher``: CryptoKit keeps no context between messages, so this
/// holds the key and hands it to each call.
struct AEADBackend: ~Copyable {
    private let algorithm: AEADAlgorithm
    private let key: SymmetricKey

    init(_ algorithm: AEADAlgorithm, key: [UInt8]) throws(CryptoError) {
        self.algorithm = algorithm
        self.key = SymmetricKey(data: key)
    }

    mutating func seal(
        _ plaintext: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8>,
        appendingTo output: inout [UInt8]
    ) throws(CryptoError) {
        do {
            switch algorithm {
            case .aes256GCM:
                let box = try AES.GCM.seal(
                    plaintext,
                    using: key,
                    nonce: AES.GCM.Nonce(data: nonce),
                    authenticating: associatedData
                )
                output += box.ciphertext
                output += box.tag
            case .chaCha20Poly1305:
                let box = try ChaChaPoly.seal(
                    plaintext,
                    using: key,
                    nonce: ChaChaPoly.Nonce(data: nonce),
                    authenticating: associatedData
                )
                output += box.ciphertext
                output += box.tag
            }
        } catch {
            throw CryptoError(.backend, "CryptoKit refused to seal: \(error)", cause: error)
        }
    }

    mutating func open(
        _ sealed: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8>
    ) throws(CryptoError) -> [UInt8] {
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
            throw CryptoError(.authenticationFailed, "the tag does not match", cause: error)
        }
    }

    /// The plaintext of `sealed`, or nil when it does not authenticate.
    mutating func openIfAuthentic(
        _ sealed: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8>
    ) -> [UInt8]? {
        try? open(sealed, nonce: nonce, associatedData: associatedData)
    }
}
#else
import CFTWOpenSSL

/// libcrypto's EVP AEAD interface behind ``AEADCipher``: one cipher context, keyed once, given a fresh nonce for
/// each message, and freed (libcrypto wipes it) with the value.
struct AEADBackend: ~Copyable {
    private static let setIVLength: Int32 = 0x9  // EVP_CTRL_AEAD_SET_IVLEN
    private static let getTag: Int32 = 0x10  // EVP_CTRL_AEAD_GET_TAG
    private static let setTag: Int32 = 0x11  // EVP_CTRL_AEAD_SET_TAG
    private static let tagSize = AEADAlgorithm.tagSize

    private let context: OpaquePointer
    /// ChaCha20-Poly1305's tag-first opener, which ``openIfAuthentic(_:nonce:associatedData:)`` uses so a refusal
    /// skips the decryption; nil for AES-GCM.
    private let tagFirst: ChaChaPolyOpener?
    /// Where ``openIfAuthentic(_:nonce:associatedData:)`` decrypts before the tag is known to match, grown to the
    /// largest message opened: a refused message costs no allocation.
    private var scratch = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

    init(_ algorithm: AEADAlgorithm, key: [UInt8]) throws(CryptoError) {
        _ = LibCrypto.ready
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError(.backend, "libcrypto could not make a cipher context")
        }
        let cipher = algorithm == .aes256GCM ? EVP_aes_256_gcm() : EVP_chacha20_poly1305()
        guard EVP_CipherInit_ex(context, cipher, nil, nil, nil, 1) == 1,
            EVP_CIPHER_CTX_ctrl(context, Self.setIVLength, Int32(AEADAlgorithm.nonceSize), nil) == 1,
            EVP_CipherInit_ex(context, nil, nil, key, nil, 1) == 1
        else {
            EVP_CIPHER_CTX_free(context)
            throw CryptoError(.backend, "libcrypto refused the key")
        }
        let tagFirst = algorithm == .chaCha20Poly1305 ? ChaChaPolyOpener(key: key) : nil
        guard algorithm == .aes256GCM || tagFirst != nil else {
            EVP_CIPHER_CTX_free(context)
            throw CryptoError(.backend, "libcrypto refused the key for ChaCha20")
        }
        self.context = context
        self.tagFirst = tagFirst
    }

    deinit {
        EVP_CIPHER_CTX_free(context)
        scratch.deallocate()
    }

    mutating func seal(
        _ plaintext: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8>,
        appendingTo output: inout [UInt8]
    ) throws(CryptoError) {
        try start(nonce: nonce, encrypting: true)
        try authenticate(associatedData)
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: plaintext.count + Self.tagSize))
        let context = context
        try output.withUnsafeMutableBufferPointer { output throws(CryptoError) in
            let sealed = UnsafeMutableBufferPointer(rebasing: output[start...])
            try Self.update(context, plaintext, into: sealed)
            try Self.finish(context)
            let tag = sealed.baseAddress! + plaintext.count
            guard EVP_CIPHER_CTX_ctrl(context, Self.getTag, Int32(Self.tagSize), tag) == 1 else {
                throw CryptoError(.backend, "libcrypto did not hand out the tag")
            }
        }
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag, at least a tag long).
    mutating func open(
        _ sealed: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        try start(nonce: nonce, encrypting: false)
        let ciphertext = sealed.dropLast(Self.tagSize)
        let context = context
        try sealed.suffix(Self.tagSize).withUnsafeBufferPointer { tag throws(CryptoError) in
            let tag = UnsafeMutableRawPointer(mutating: tag.baseAddress)
            guard EVP_CIPHER_CTX_ctrl(context, Self.setTag, Int32(Self.tagSize), tag) == 1 else {
                throw CryptoError(.backend, "libcrypto did not take the tag")
            }
        }
        try authenticate(associatedData)
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        try plaintext.withUnsafeMutableBufferPointer { plaintext throws(CryptoError) in
            try Self.update(context, ciphertext, into: plaintext)
        }
        do {
            try Self.finish(context)
        } catch {
            throw CryptoError(.authenticationFailed, "the tag does not match", cause: error)
        }
        return plaintext
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag), or nil when the tag does not match or libcrypto refuses: the
    /// same check as ``open(_:nonce:associatedData:)``, but a refusal builds no error and allocates nothing, since
    /// a receiver in a relay room refuses another phone's every frame. The message is decrypted into `scratch` and
    /// copied out only once its tag matched.
    mutating func openIfAuthentic(
        _ sealed: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8>
    ) -> [UInt8]? {
        let count = sealed.count - Self.tagSize
        guard count >= 0 else { return nil }
        if scratch.count < count {
            scratch.deallocate()
            scratch = .allocate(capacity: count)
        }
        let (context, scratch) = (context, scratch)
        if let tagFirst {
            let opened = sealed.withUnsafeBufferPointer { sealed in
                nonce.withUnsafeBytes { nonce in
                    associatedData.withUnsafeBytes { associatedData in
                        tagFirst.open(sealed, count: count, nonce: nonce, associatedData: associatedData, into: scratch)
                    }
                }
            }
            return opened ? Array(UnsafeBufferPointer(rebasing: scratch[..<count])) : nil
        }
        guard EVP_CipherInit_ex(context, nil, nil, nil, nonce, 0) == 1 else {
            ERR_clear_error()
            return nil
        }
        let authentic = sealed.withUnsafeBufferPointer { sealed in
            associatedData.withUnsafeBufferPointer { associatedData in
                Self.decrypt(context, sealed, count: count, associatedData: associatedData, into: scratch)
            }
        }
        guard authentic else {
            // A tag that does not match queues no error (libcrypto 3); a step libcrypto refused may have, and a
            // stale error would mislead the next caller that reads the queue (TLS on the same thread). Peeking
            // costs a fraction of clearing every slot.
            if ERR_peek_error() != 0 { ERR_clear_error() }
            return nil
        }
        return Array(UnsafeBufferPointer(rebasing: scratch[..<count]))
    }

    /// Gives `context` the tag that ends `sealed`, the associated data and the first `count` bytes (decrypted into
    /// `output`), and says whether the tag matched.
    private static func decrypt(
        _ context: OpaquePointer,
        _ sealed: UnsafeBufferPointer<UInt8>,
        count: Int,
        associatedData: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        guard let base = sealed.baseAddress else { return false }
        var length: Int32 = 0
        guard
            EVP_CIPHER_CTX_ctrl(context, setTag, Int32(tagSize), UnsafeMutableRawPointer(mutating: base + count)) == 1,
            associatedData.isEmpty
                || EVP_CipherUpdate(context, nil, &length, associatedData.baseAddress, Int32(associatedData.count))
                    == 1,
            count == 0 || EVP_CipherUpdate(context, output.baseAddress, &length, base, Int32(count)) == 1
        else { return false }
        var tail: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &tail) { tail in
            EVP_CipherFinal_ex(context, tail.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
        } == 1
    }

    /// Gives the keyed context `nonce` and a direction; libcrypto resets the message state (counters, associated
    /// data, the Poly1305 or GHASH state) with the nonce, so nothing of the previous message carries over.
    private func start(nonce: [UInt8], encrypting: Bool) throws(CryptoError) {
        guard EVP_CipherInit_ex(context, nil, nil, nil, nonce, encrypting ? 1 : 0) == 1 else {
            ERR_clear_error()
            throw CryptoError(.backend, "libcrypto refused the nonce")
        }
    }

    private func authenticate(_ associatedData: ArraySlice<UInt8>) throws(CryptoError) {
        guard !associatedData.isEmpty else { return }
        let context = context
        try associatedData.withUnsafeBufferPointer { associatedData throws(CryptoError) in
            var length: Int32 = 0
            guard
                EVP_CipherUpdate(context, nil, &length, associatedData.baseAddress, Int32(associatedData.count)) == 1
            else {
                throw CryptoError(.backend, "libcrypto refused the associated data")
            }
        }
    }

    /// Runs `input` through the cipher into `output`, which holds at least as many bytes (both ciphers are
    /// streams, so libcrypto writes exactly that many).
    private static func update(
        _ context: OpaquePointer,
        _ input: ArraySlice<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) throws(CryptoError) {
        guard !input.isEmpty else { return }
        try input.withUnsafeBufferPointer { input throws(CryptoError) in
            var length: Int32 = 0
            guard EVP_CipherUpdate(context, output.baseAddress, &length, input.baseAddress, Int32(input.count)) == 1,
                length == Int32(input.count)
            else {
                throw CryptoError(.backend, "libcrypto refused the input")
            }
        }
    }

    private static func finish(_ context: OpaquePointer) throws(CryptoError) {
        var scratch: (UInt64, UInt64) = (0, 0)
        var length: Int32 = 0
        let finished = withUnsafeMutableBytes(of: &scratch) { scratch in
            EVP_CipherFinal_ex(context, scratch.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
        }
        guard finished == 1 else {
            ERR_clear_error()
            throw CryptoError(.authenticationFailed, "libcrypto refused to finish")
        }
    }
}
#endif
