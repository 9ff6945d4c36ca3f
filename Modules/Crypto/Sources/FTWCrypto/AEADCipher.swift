import FTWBus

/// One AEAD key's cipher, kept for every message sealed or opened under that key.
///
/// Making and keying a cipher costs more than sealing or opening a small message with it (libcrypto allocates,
/// keys and wipes a context each time: most of opening a 1 Hz frame), so a holder of a long-lived key, such as a
/// Noise transport, keeps one and only the nonce changes from message to message. The one-shot
/// ``AEADAlgorithm/seal(_:key:nonce:associatedData:)`` and ``AEADAlgorithm/open(_:key:nonce:associatedData:)``
/// make one for a single message.
///
/// It cannot be copied and every use is `mutating`, so exactly one owner uses its context at a time (which is what
/// makes sending it to another isolation domain safe) and the context, wiped and freed with the value, never
/// outlives the key's owner.
public struct AEADCipher: ~Copyable, @unchecked Sendable {
    private var backend: AEADBackend

    /// A cipher keyed with `key`.
    ///
    /// - Throws: `CryptoError` with `.invalidKeySize` unless the key is 32 bytes, `.backend` when the library
    ///   cannot make a context.
    public init(_ algorithm: AEADAlgorithm, key: [UInt8]) throws(CryptoError) {
        guard key.count == AEADAlgorithm.keySize else {
            throw CryptoError(.invalidKeySize, "an AEAD key is 32 bytes, not \(key.count)")
        }
        backend = try AEADBackend(algorithm, key: key)
    }

    /// Encrypts `plaintext` under `nonce`, authenticating it together with `associatedData`, and appends
    /// ciphertext ‖ tag (`plaintext.count + 16` bytes) to `output`, so a caller that frames the result writes it
    /// into one buffer.
    ///
    /// - Throws: `CryptoError` with `.invalidNonceSize` unless the nonce is 12 bytes; `output` is then unchanged.
    public mutating func seal(
        _ plaintext: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8> = [],
        appendingTo output: inout [UInt8]
    ) throws(CryptoError) {
        try Self.check(nonce: nonce)
        try backend.seal(plaintext, nonce: nonce, associatedData: associatedData, appendingTo: &output)
    }

    /// Checks the tag and decrypts `sealed` (ciphertext ‖ tag) under `nonce`.
    ///
    /// A refused message leaves the cipher as good as new: the next message is opened on its own.
    ///
    /// - Throws: `CryptoError` with `.authenticationFailed` when the bytes, key, nonce or associated data differ
    ///   from those sealed (including input shorter than a tag), `.invalidNonceSize` unless the nonce is 12 bytes.
    public mutating func open(
        _ sealed: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8> = []
    ) throws(CryptoError) -> [UInt8] {
        try Self.check(nonce: nonce)
        guard sealed.count >= AEADAlgorithm.tagSize else {
            throw CryptoError(.authenticationFailed, "\(sealed.count) bytes cannot hold a 16-byte tag")
        }
        return try backend.open(sealed, nonce: nonce, associatedData: associatedData)
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag) under `nonce`, or nil when it does not authenticate (or the
    /// nonce is not 12 bytes): the check ``open(_:nonce:associatedData:)`` makes, for a receiver that refuses many
    /// messages not meant for it (another phone's frames in a relay room), so a refusal builds no error and
    /// allocates nothing.
    public mutating func openIfAuthentic(
        _ sealed: ArraySlice<UInt8>,
        nonce: [UInt8],
        associatedData: ArraySlice<UInt8> = []
    ) -> [UInt8]? {
        guard nonce.count == AEADAlgorithm.nonceSize, sealed.count >= AEADAlgorithm.tagSize else { return nil }
        return backend.openIfAuthentic(sealed, nonce: nonce, associatedData: associatedData)
    }

    private static func check(nonce: [UInt8]) throws(CryptoError) {
        guard nonce.count == AEADAlgorithm.nonceSize else {
            throw CryptoError(.invalidNonceSize, "an AEAD nonce is 12 bytes, not \(nonce.count)")
        }
    }
}
