public import FTWBus

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an event loop could not be made: the kernel refused it the descriptors it waits with. In ``/FTWBus/FTWError``'s
/// shape, as every error of ftw-core.
///
/// Its `message` is the system call that failed and the system's reason (`eventfd: Too many open files`), and its
/// `cause` is nil: the system's reason is in the message, in its own words, and no error value of a lower layer stands
/// behind it.
public struct EventLoopError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case noDescriptor
        }

        private let value: Value

        /// A system call that makes a descriptor (`epoll_create1`, `eventfd`, `pipe`) failed: most often the
        /// process is out of descriptors, and a later try may succeed.
        public static let noDescriptor = Code(value: .noDescriptor)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }

    /// The error for the system call `call`, with the text of the current `errno`.
    static func lastError(_ call: String) -> EventLoopError {
        EventLoopError(.noDescriptor, "\(call): \(String(cString: strerror(errno)))")
    }
}
