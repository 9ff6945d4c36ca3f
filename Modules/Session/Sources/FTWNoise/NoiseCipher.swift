import FTWCrypto

/// Noise's `ENCRYPT`/`DECRYPT` for ChaChaPoly: the one place that turns a counter into a nonce, shared by the
/// handshake and the transport so the two cannot disagree on the layout.
enum NoiseCipher {
    /// The 12-byte nonce of `counter`: 4 zero bytes, then the counter as u64 little-endian (Noise, ChaChaPoly).
    static func nonce(_ counter: UInt64) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: 12)
        write(counter, into: &nonce)
        return nonce
    }

    /// Rewrites the 12-byte `nonce` in place as the nonce of `counter`, for a transport that reuses one buffer.
    static func write(_ counter: UInt64, into nonce: inout [UInt8]) {
        nonce.withUnsafeMutableBytes { nonce in
            nonce.storeBytes(of: 0, as: UInt32.self)
            nonce.storeBytes(of: counter.littleEndian, toByteOffset: 4, as: UInt64.self)
        }
    }

    /// ciphertext ‖ tag of `plaintext` under `key` at `counter`, authenticating `associatedData`.
    static func seal(
        _ plaintext: [UInt8],
        key: [UInt8],
        counter: UInt64,
        associatedData: [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        do {
            return try AEADAlgorithm.chaCha20Poly1305.seal(
                plaintext,
                key: key,
                nonce: nonce(counter),
                associatedData: associatedData
            )
        } catch {
            throw NoiseError(error, while: "sealing")
        }
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag) under `key` at `counter`, if the tag matches.
    static func open(
        _ sealed: [UInt8],
        key: [UInt8],
        counter: UInt64,
        associatedData: [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        do {
            return try AEADAlgorithm.chaCha20Poly1305.open(
                sealed,
                key: key,
                nonce: nonce(counter),
                associatedData: associatedData
            )
        } catch {
            throw NoiseError(error, while: "opening")
        }
    }
}
