public import FTWBus

/// Why a cryptographic operation failed: the one error type of the `Crypto` module.
///
/// Callers mostly care whether something failed to authenticate (a tampered file, a frame that is not theirs)
/// or whether the inputs were wrong (a key of the wrong size), so the code tells those apart.
///
/// Its `message` is a sentence for logs, never shown to a person as is, which says the cause, when there is one, in
/// words.
public struct CryptoError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case authenticationFailed, invalidKeySize, invalidNonceSize, weakSharedSecret, backend
        }

        private let value: Value

        /// The tag did not match: the bytes were changed, or sealed under another key, nonce or associated data.
        public static let authenticationFailed = Code(value: .authenticationFailed)
        /// A key had the wrong length for the algorithm.
        public static let invalidKeySize = Code(value: .invalidKeySize)
        /// A nonce had the wrong length for the algorithm.
        public static let invalidNonceSize = Code(value: .invalidNonceSize)
        /// An X25519 exchange produced all zeros (a low-order public key), which Noise requires us to refuse.
        public static let weakSharedSecret = Code(value: .weakSharedSecret)
        /// The underlying library refused the operation for a reason of its own.
        public static let backend = Code(value: .backend)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }
}
