#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few socket constants that differ between Linux and Apple platforms, in one place.
enum SocketPlatform {
    #if canImport(Glibc)
    /// A TCP stream socket.
    static let streamType = Int32(SOCK_STREAM.rawValue)
    /// `send` flags: a write to a closed peer returns EPIPE instead of raising SIGPIPE.
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    /// A TCP stream socket.
    static let streamType = SOCK_STREAM
    /// `send` flags: SIGPIPE is suppressed per socket with `SO_NOSIGPIPE` instead.
    static let sendFlags: Int32 = 0
    #endif

    /// The text of the current `errno`, for error messages.
    static func lastError(_ call: String) -> String {
        "\(call): \(String(cString: strerror(errno)))"
    }

    /// `duration` as a `timeval`, for `SO_SNDTIMEO`.
    static func timeValue(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        return timeval(tv_sec: time_t(max(0, seconds)), tv_usec: suseconds_t(max(0, attoseconds) / 1_000_000_000_000))
    }

    /// `duration` in whole milliseconds for `poll`, clamped to `0...Int32.max`.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? 0 : .max }
        return Int32(clamping: max(0, millis &+ attoseconds / 1_000_000_000_000_000))
    }
}

extension SocketPlatform {
    /// Accepts one connection whose descriptor is not inherited by child processes.
    static func acceptConnection(_ listener: Int32) -> Int32 {
        let descriptor = accept(listener, nil, nil)
        if descriptor >= 0 { setCloseOnExec(descriptor) }
        return descriptor
    }

    /// A pipe whose ends are not inherited by child processes: the listener's wake-up line.
    static func makePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { setCloseOnExec(end) }
        return (ends[0], ends[1])
    }

    /// Keeps `descriptor` out of child processes (the Python cross-check spawns some).
    static func setCloseOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    }
}
