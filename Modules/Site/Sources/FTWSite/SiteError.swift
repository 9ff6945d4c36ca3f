public import FTWBus

/// Why an answer about the site could not be taken: the one error type of the Site module.
///
/// An answer that fails is never recorded, so a model keeps showing what it showed before.
///
/// Its `message` is a sentence for logs, never shown to a person as is, which says the cause, when there is one, in
/// words.
public struct SiteError: FTWStoredError {
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

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }
}
