public import FTWBus

/// Why a cryptographic operation failed: the one error type of the `Crypto` module.
///
/// Callers mostly care whether something failed to authenticate (a tampered file, a frame that is not theirs)
/// or whether the inputs were wrong (a key of the wrong size), so the code tells those apart.
public struct CryptoError: FTWError {
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

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for logs, never shown to a person as is.
    public var message: String
    /// The lower layer's failure this one stands for, kept as thrown so a program can look at it; not part of
    /// equality, and not printed (the message already says it in words).
    public var cause: (any Error)?

    /// Makes an error.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

}
