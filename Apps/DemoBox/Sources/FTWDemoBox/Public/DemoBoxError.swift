public import FTWBus

/// Why the demo box could not start or read its input: the one error type of the `DemoBox` module.
public struct DemoBoxError: FTWError {
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

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for the terminal or a log.
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
