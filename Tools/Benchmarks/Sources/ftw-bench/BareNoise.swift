import CFTWOpenSSL

/// The baseline of ``NoiseBenchmark``: the same Noise IK handshake, both sides, written straight on libcrypto with
/// the calls `Crypto` makes (raw X25519 key imports, `EVP_PKEY_derive`, EVP ChaCha20-Poly1305, `EVP_Digest`,
/// one-shot `HMAC`), each private key imported once, and no checks beyond what libcrypto returns.
enum BareNoise {
    private static let protocolName = Array("Noise_IK_25519_ChaChaPoly_SHA256".utf8)
    private static let zeroNonce = [UInt8](repeating: 0, count: 12)

    /// Noise's symmetric state with the bare calls; every handshake AEAD call of IK uses nonce 0.
    private struct State {
        var hash = BareNoise.protocolName
        var chainingKey = BareNoise.protocolName
        var key: [UInt8] = []

        mutating func mixHash(_ data: [UInt8]) { hash = digest(hash + data) }

        mutating func mixKey(_ secret: [UInt8]) {
            let (next, key) = derive(chainingKey, secret)
            chainingKey = next
            self.key = key
        }

        mutating func encryptAndHash(_ plaintext: [UInt8]) -> [UInt8] {
            let sealed = aead(plaintext, key: key, associatedData: hash, encrypting: true)
            mixHash(sealed)
            return sealed
        }

        mutating func decryptAndHash(_ sealed: [UInt8]) -> [UInt8] {
            let plaintext = aead(sealed, key: key, associatedData: hash, encrypting: false)
            mixHash(sealed)
            return plaintext
        }
    }

    /// Both sides of one handshake; the transcript the vectors hold.
    static func handshake(_ keys: NoiseBenchmark.Keys) -> NoiseBenchmark.Transcript {
        let (appStatic, appStaticPublic) = importKey(keys.initiatorStatic)
        let (appEphemeral, appEphemeralPublic) = importKey(keys.initiatorEphemeral)
        let (boxStatic, boxStaticPublic) = importKey(keys.responderStatic)
        let (boxEphemeral, boxEphemeralPublic) = importKey(keys.responderEphemeral)
        defer { [appStatic, appEphemeral, boxStatic, boxEphemeral].forEach { EVP_PKEY_free($0) } }

        var app = State()
        app.mixHash(keys.prologue)
        app.mixHash(keys.responderStaticPublic)
        app.mixHash(appEphemeralPublic)
        app.mixKey(exchange(appEphemeral, keys.responderStaticPublic))
        let encryptedStatic = app.encryptAndHash(appStaticPublic)
        app.mixKey(exchange(appStatic, keys.responderStaticPublic))
        let message1 = appEphemeralPublic + encryptedStatic + app.encryptAndHash(keys.message1Payload)

        var box = State()
        box.mixHash(keys.prologue)
        box.mixHash(boxStaticPublic)
        let remoteEphemeral = Array(message1[0..<32])
        box.mixHash(remoteEphemeral)
        box.mixKey(exchange(boxStatic, remoteEphemeral))
        let remoteStatic = box.decryptAndHash(Array(message1[32..<80]))
        box.mixKey(exchange(boxStatic, remoteStatic))
        _ = box.decryptAndHash(Array(message1[80...]))
        box.mixHash(boxEphemeralPublic)
        box.mixKey(exchange(boxEphemeral, remoteEphemeral))
        box.mixKey(exchange(boxEphemeral, remoteStatic))
        let message2 = boxEphemeralPublic + box.encryptAndHash(keys.message2Payload)
        _ = derive(box.chainingKey, [])

        let replyEphemeral = Array(message2[0..<32])
        app.mixHash(replyEphemeral)
        app.mixKey(exchange(appEphemeral, replyEphemeral))
        app.mixKey(exchange(appStatic, replyEphemeral))
        _ = app.decryptAndHash(Array(message2[32...]))
        _ = derive(app.chainingKey, [])
        return NoiseBenchmark.Transcript(message1: message1, message2: message2, handshakeHash: app.hash)
    }

    private static func importKey(_ raw: [UInt8]) -> (OpaquePointer, [UInt8]) {
        let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nil, raw, raw.count)!
        var length = 32
        var publicKey = [UInt8](repeating: 0, count: 32)
        EVP_PKEY_get_raw_public_key(key, &publicKey, &length)
        return (key, publicKey)
    }

    private static func exchange(_ key: OpaquePointer, _ publicKey: [UInt8]) -> [UInt8] {
        let peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, publicKey, publicKey.count)
        let context = EVP_PKEY_CTX_new(key, nil)
        var length = 32
        var secret = [UInt8](repeating: 0, count: 32)
        EVP_PKEY_derive_init(context)
        EVP_PKEY_derive_set_peer(context, peer)
        EVP_PKEY_derive(context, &secret, &length)
        EVP_PKEY_CTX_free(context)
        EVP_PKEY_free(peer)
        return secret
    }

    /// ChaCha20-Poly1305 at nonce 0: ciphertext ‖ tag when encrypting, the plaintext (tag unchecked) otherwise.
    private static func aead(
        _ input: [UInt8],
        key: [UInt8],
        associatedData: [UInt8],
        encrypting: Bool
    ) -> [UInt8] {
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        let mode: Int32 = encrypting ? 1 : 0
        EVP_CipherInit_ex(context, EVP_chacha20_poly1305(), nil, key, zeroNonce, mode)
        var tag = encrypting ? [UInt8](repeating: 0, count: 16) : Array(input.suffix(16))
        let body = encrypting ? input : Array(input.dropLast(16))
        if !encrypting { EVP_CIPHER_CTX_ctrl(context, 0x11, 16, &tag) }
        var length: Int32 = 0
        EVP_CipherUpdate(context, nil, &length, associatedData, Int32(associatedData.count))
        var output = [UInt8](repeating: 0, count: body.count + 16)
        if !body.isEmpty { EVP_CipherUpdate(context, &output, &length, body, Int32(body.count)) }
        output.removeLast(output.count - body.count)
        var scratch = [UInt8](repeating: 0, count: 16)
        EVP_CipherFinal_ex(context, &scratch, &length)
        guard encrypting else { return output }
        EVP_CIPHER_CTX_ctrl(context, 0x10, 16, &tag)
        return output + tag
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_Digest(bytes, bytes.count, &output, &length, EVP_sha256(), nil)
        return output
    }

    private static func hmac(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &output, &length)
        return output
    }

    /// Noise's two-output HKDF: three HMACs.
    private static func derive(_ chainingKey: [UInt8], _ secret: [UInt8]) -> ([UInt8], [UInt8]) {
        let key = hmac(chainingKey, secret)
        let first = hmac(key, [1])
        return (first, hmac(key, first + [2]))
    }
}
