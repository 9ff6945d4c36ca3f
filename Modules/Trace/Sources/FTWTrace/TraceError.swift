public import FTWBus

/// Why the ring file's contents could not be read back: the one error type of the Trace module.
///
/// A ring file that fails is a cache that is lost, never a crash and never a wrong point: the trace starts empty
/// and says why with `TraceEvent.restoreFailed`.
///
/// Its `message` is a sentence for logs, which says the cause, when there is one, in words.
public struct TraceError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case truncated, unknownVersion, malformed, tooLarge
        }

        private let value: Value

        /// The contents end before the layout says they should.
        public static let truncated = Code(value: .truncated)
        /// The contents were written in a layout version this build does not know.
        public static let unknownVersion = Code(value: .unknownVersion)
        /// A number or flag is out of its range: an overlong varint, times that do not move forward, run segments
        /// that do not add up, unknown flag bits, bytes left over.
        public static let malformed = Code(value: .malformed)
        /// More fields or more points than this trace keeps (a file written under a larger configuration).
        public static let tooLarge = Code(value: .tooLarge)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }
}
