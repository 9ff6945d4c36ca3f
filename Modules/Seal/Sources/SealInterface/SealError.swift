/// Why a sealed file could not be written, read or erased: the one error type of the Seal module.
///
/// The codes double as the reason of `SealEvent.dropped`, so a log says why a model started empty.
public struct SealError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case authenticationFailed, truncated, badMagic, unknownVersion, wrongKind, wrongSite
            case io, keyUnavailable, invalidName
        }

        private let value: Value

        /// The tag did not match: a byte of the nonce, ciphertext or tag changed, the file was sealed under another
        /// key, or it was renamed to another model's name.
        ///
        /// AES-GCM cannot tell these apart (a wrong key and a flipped bit fail the same check), so they share a code.
        public static let authenticationFailed = Code(value: .authenticationFailed)
        /// A changed byte: the same code as ``authenticationFailed``, which AES-GCM cannot tell from a wrong key.
        public static let tampered = authenticationFailed
        /// Another phone's key: the same code as ``authenticationFailed``, which AES-GCM cannot tell from tampering.
        public static let wrongKey = authenticationFailed
        /// The file is too short to hold a header, a nonce and a tag.
        public static let truncated = Code(value: .truncated)
        /// The file does not start with the seal's magic bytes: it is not a sealed file.
        public static let badMagic = Code(value: .badMagic)
        /// The file was sealed in a format version this build does not know.
        public static let unknownVersion = Code(value: .unknownVersion)
        /// The header names another kind than the file name does (a ring renamed to tiles).
        public static let wrongKind = Code(value: .wrongKind)
        /// The header names another site than the file name does (one home's file copied over another's).
        public static let wrongSite = Code(value: .wrongSite)
        /// The file system refused a read, write, rename or removal.
        public static let io = Code(value: .io)
        /// The key provider could not hand out the phone's key (or handed out one that is not 32 bytes).
        public static let keyUnavailable = Code(value: .keyUnavailable)
        /// A kept file's model name is not lowercase `[a-z0-9-]`, or is a built-in kind's name.
        public static let invalidName = Code(value: .invalidName)

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for logs, never shown to a person as is.
    public var message: String

    /// Makes an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
