public import FTWBus

/// Why the ring file's contents could not be read back: the one error type of the Trace module.
///
/// A ring file that fails is a cache that is lost, never a crash and never a wrong point: the trace starts empty
/// and says why with `TraceEvent.restoreFailed`.
public struct TraceError: FTWError {
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

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for logs.
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
