public import FTWBus

/// Why the demo box could not start or read its input: the one error type of the `DemoBox` module.
///
/// Its `message` is a sentence for the terminal or a log, which says the cause, when there is one, in words.
public struct DemoBoxError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case listen, stateFile, badIdentity, badArgument
        }

        private let value: Value

        /// The relay could not listen on its port.
        public static let listen = Code(value: .listen)
        /// The state folder's file could not be read or written.
        public static let stateFile = Code(value: .stateFile)
        /// Stored keys are not X25519 keys of the right size.
        public static let badIdentity = Code(value: .badIdentity)
        /// A command-line argument was not understood.
        public static let badArgument = Code(value: .badArgument)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }
}
