public import FTWBus

/// Why an answer about the site could not be taken: the one error type of the Site module.
///
/// An answer that fails is never recorded, so a model keeps showing what it showed before.
public struct SiteError: FTWError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case undecodable, unexpectedStatus, unknownTimeZone
        }

        private let value: Value

        /// The body is not the JSON the model reads (not JSON, not an object, a field of the wrong kind).
        public static let undecodable = Code(value: .undecodable)
        /// The box's handler answered with a status other than 2xx.
        public static let unexpectedStatus = Code(value: .unexpectedStatus)
        /// The box named a time zone this system does not know.
        public static let unknownTimeZone = Code(value: .unknownTimeZone)

        /// The code's name.
        public var description: String { value.rawValue }
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
