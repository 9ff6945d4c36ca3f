public import FTWBus

/// Why a ``HeadlessClient`` refused what it was asked, in ``/FTWBus/FTWError``'s shape.
///
/// Its `message` says what happened and what to do instead, in the words a person reads; its `cause` is always nil: the
/// refusal is the client's own, with no lower failure behind it.
public struct HeadlessClientError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case closed
        }

        private let value: Value

        /// The client was closed (``HeadlessClient/close()``), or its close has begun: a closed client does not run
        /// or take a scene phase again. A new client on the same data folder is the next launch.
        public static let closed = Code(value: .closed)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }

    /// The error of a closed client: what `catch HeadlessClientError.closed` and `error == .closed` match.
    public static let closed = HeadlessClientError(
        .closed,
        "this client was closed: it does not run or follow the scene again; a new client on the same folder does"
    )

    /// The message alone: it already says what happened in a person's words (``/FTWBus/FTWStoredError/code`` is for deciding).
    public var description: String { message }
}
