import FTWCrypto

/// The keyed ChaCha20-Poly1305 context one ``NoiseTransport`` seals or opens with, kept for as long as the key.
///
/// A class so the transport can stay a copyable value: the transport uses it only while it holds the one
/// reference (and makes its own from the key otherwise), the way an array writes to its buffer only when it is
/// not shared, so no two copies of a transport ever drive the same context, even on different threads. That is
/// the whole of its sendability. The context is wiped and freed when the last transport holding it goes.
final class TransportCipher: @unchecked Sendable {
    // Unchecked exclusivity: the one transport holding the class alone touches it (above), and the dynamic checks
    // of the two accesses a message cost about 180 instructions a live frame.
    @exclusivity(unchecked) private var cipher: AEADCipher
    /// The nonce of the message in hand, rewritten in place for each one.
    @exclusivity(unchecked) private var nonce = NoiseCipher.nonce(0)

    /// A cipher keyed with `key` for the first message; `step` ("sealing", "opening") names it in an error.
    init(key: [UInt8], for step: String) throws(NoiseError) {
        do {
            cipher = try AEADCipher(.chaCha20Poly1305, key: key)
        } catch {
            throw NoiseError(error, while: step)
        }
    }

    /// Appends ciphertext ‖ tag of `plaintext` at `counter` to `output`, authenticating `associatedData`.
    func seal(
        _ plaintext: [UInt8],
        counter: UInt64,
        associatedData: ArraySlice<UInt8>,
        appendingTo output: inout [UInt8]
    ) throws(NoiseError) {
        NoiseCipher.write(counter, into: &nonce)
        do {
            try cipher.seal(plaintext[...], nonce: nonce, associatedData: associatedData, appendingTo: &output)
        } catch {
            throw NoiseError(error, while: "sealing")
        }
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag) at `counter`, or nil when the tag does not match: a refusal
    /// builds no error.
    func openIfAuthentic(_ sealed: ArraySlice<UInt8>, counter: UInt64, associatedData: ArraySlice<UInt8>) -> [UInt8]? {
        NoiseCipher.write(counter, into: &nonce)
        return cipher.openIfAuthentic(sealed, nonce: nonce, associatedData: associatedData)
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag) at `counter`, if the tag matches.
    func open(
        _ sealed: ArraySlice<UInt8>,
        counter: UInt64,
        associatedData: ArraySlice<UInt8>
    ) throws(NoiseError)
        -> [UInt8]
    {
        NoiseCipher.write(counter, into: &nonce)
        do {
            return try cipher.open(sealed, nonce: nonce, associatedData: associatedData)
        } catch {
            throw NoiseError(error, while: "opening")
        }
    }
}
