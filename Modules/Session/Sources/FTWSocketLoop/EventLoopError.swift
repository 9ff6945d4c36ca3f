#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an event loop could not be made: the kernel refused it the descriptors it waits with.
public struct EventLoopError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, with the system's reason.
    public let message: String

    /// Makes an error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The error for the system call `call`, with the text of the current `errno`.
    static func lastError(_ call: String) -> EventLoopError {
        EventLoopError("\(call): \(String(cString: strerror(errno)))")
    }

    /// The message, for logs.
    public var description: String { "EventLoopError: \(message)" }
}
