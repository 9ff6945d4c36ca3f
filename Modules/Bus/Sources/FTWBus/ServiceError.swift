/// Why a ``ClientService`` refused what it was asked: the one error of the service shape, in ``FTWError``'s shape.
///
/// Its `message` names the service and what was wrong, in the words a person reads; its `cause` is always nil: the
/// refusal is the service's own, with no lower failure behind it.
public struct ServiceError: FTWStoredError {
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

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }

    /// The error of a second ``ClientService/run()`` of the service named `name`.
    public static func alreadyRunning(_ name: String) -> ServiceError {
        ServiceError(
            .alreadyRunning,
            "\(name) was asked to run a second time: a service runs once, and the first run goes on"
        )
    }

    /// The message alone: it already says what happened in a person's words (``FTWStoredError/code`` is for deciding).
    public var description: String { message }
}
