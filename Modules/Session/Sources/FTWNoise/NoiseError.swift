public import FTWBus

/// Why a Noise handshake or transport step failed: the one error type of the `Noise` module.
///
/// The session above needs to tell "not my message" (another phone's frame in the same relay room, which it ignores)
/// from "my message, replayed" and from its own misuse, so each of those has a code of its own.
///
/// Its `message` is a sentence for logs, never shown to a person as is, which says the cause, when there is one, in
/// words.
public struct NoiseError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case authenticationFailed, replay, malformed, nonceExhausted, invalidKey, wrongState, weakKey, backend
        }

        private let value: Value

        /// The tag did not match: the message was changed, or it belongs to another session or handshake.
        public static let authenticationFailed = Code(value: .authenticationFailed)
        /// An authenticated transport message whose sequence number was already seen or is too old for the window.
        public static let replay = Code(value: .replay)
        /// The bytes are too short to be the message they claim to be.
        public static let malformed = Code(value: .malformed)
        /// The next sequence number would be 2^64−1, which Noise never uses; the session must end.
        public static let nonceExhausted = Code(value: .nonceExhausted)
        /// A key has the wrong size.
        public static let invalidKey = Code(value: .invalidKey)
        /// A handshake step was called out of turn (for example message 2 before message 1).
        public static let wrongState = Code(value: .wrongState)
        /// A Diffie-Hellman result was all zeros (a low-order public key), which Noise requires us to refuse.
        public static let weakKey = Code(value: .weakKey)
        /// The cryptographic library refused for a reason of its own.
        public static let backend = Code(value: .backend)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }
}
