/// Why a ``ClientService`` refused what it was asked: the one error of the service shape, in ``FTWError``'s shape.
public struct ServiceError: FTWError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case alreadyRunning
        }

        private let value: Value

        /// ``ClientService/run()`` was called on a service that runs or ran already; the first run goes on
        /// untouched.
        public static let alreadyRunning = Code(value: .alreadyRunning)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// One line naming the service and what was wrong, in the words a person reads.
    public var message: String
    /// Always nil: the refusal is the service's own, with no lower failure behind it.
    public var cause: (any Error)?

    /// Makes an error.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The error of a second ``ClientService/run()`` of the service named `name`.
    public static func alreadyRunning(_ name: String) -> ServiceError {
        ServiceError(
            .alreadyRunning,
            "\(name) was asked to run a second time: a service runs once, and the first run goes on"
        )
    }

    /// The message alone: it already says what happened in a person's words (``code`` is for deciding).
    public var description: String { message }
}
