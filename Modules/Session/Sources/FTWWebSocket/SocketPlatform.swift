#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few socket calls and constants that differ between Linux and Apple platforms, in one place.
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

    /// Releases `descriptor`.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// A new TCP socket for `family`, non-blocking and kept out of child processes; -1 when none is given.
    static func makeStreamSocket(family: Int32) -> Int32 {
        let descriptor = socket(family, streamType, 0)
        if descriptor >= 0 { prepare(descriptor) }
        return descriptor
    }

    /// Starts connecting a non-blocking socket: 0 when connected at once, else -1 with `errno` (EINPROGRESS: the
    /// loop will say when it is done).
    static func startConnect(_ descriptor: Int32, to address: SocketAddress) -> Int32 {
        address.bytes.withUnsafeBytes { raw in
            connect(descriptor, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), address.length)
        }
    }

    /// Accepts one connection, non-blocking and kept out of child processes; -1 with `errno` when none is taken.
    static func acceptConnection(_ listener: Int32) -> Int32 {
        let descriptor = accept(listener, nil, nil)
        if descriptor >= 0 { prepare(descriptor) }
        return descriptor
    }

    /// Makes `descriptor` non-blocking and keeps it out of child processes (the Python cross-check spawns some).
    static func prepare(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Sends small frames at once (`TCP_NODELAY`) and, on Apple platforms, turns SIGPIPE off for the socket.
    static func configureStream(_ descriptor: Int32) {
        var enabled: Int32 = 1
        let intSize = socklen_t(MemoryLayout<Int32>.size)
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, intSize)
        #if canImport(Darwin)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &enabled, intSize)
        #endif
    }
}
