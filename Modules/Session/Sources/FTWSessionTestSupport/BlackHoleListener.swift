#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket on a loopback address that answers no new connection: its accept queue is full and nobody
/// accepts, so the kernel drops every further SYN and a connect to it hangs, as to a black-holed address (a broken
/// IPv6 path). Traffic stays on loopback; no firewall rule or privilege is needed.
///
/// ## Concurrency
/// A `Sendable` class of immutable descriptors; ``close()`` once, when the test is done.
public final class BlackHoleListener: Sendable {
    /// The bound port.
    public let port: Int
    private let descriptors: [Int32]

    /// Binds `address` (an IPv4 or IPv6 loopback literal) at `port` (0 for any), listens with the smallest backlog,
    /// and fills it with connections nobody accepts until one is left hanging.
    ///
    /// - Throws: ``BlackHoleError`` when the socket cannot be bound or the queue never fills.
    public init(address: String, port: Int) throws(BlackHoleError) {
        let family = address.contains(":") ? AF_INET6 : AF_INET
        let listener = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BlackHoleError("socket: \(String(cString: strerror(errno)))") }
        var descriptors = [listener]
        var storage = sockaddr_storage()
        let length = Self.fill(&storage, family: family, address: address, port: port)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 0) == 0 else {
            let reason = String(cString: strerror(errno))
            closeSocket(listener)
            throw BlackHoleError("\(address) port \(port): \(reason)")
        }
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
                _ = getsockname(listener, $0, &size)
            }
        }
        let boundPort = Self.port(of: storage, family: family)
        var hanging = false
        for _ in 0..<16 where !hanging {
            let filler = socket(family, Int32(SOCK_STREAM.rawValue), 0)
            guard filler >= 0 else { break }
            descriptors.append(filler)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            var entry = pollfd(fd: filler, events: Int16(POLLOUT), revents: 0)
            hanging = poll(&entry, 1, 200) == 0
        }
        guard hanging else {
            for descriptor in descriptors { closeSocket(descriptor) }
            throw BlackHoleError("the accept queue of \(address) port \(boundPort) never filled")
        }
        self.port = boundPort
        self.descriptors = descriptors
    }

    /// Closes the listener and its unaccepted connections.
    public func close() {
        for descriptor in descriptors { closeSocket(descriptor) }
    }

    private static func fill(_ storage: inout sockaddr_storage, family: Int32, address: String, port: Int) -> socklen_t
    {
        withUnsafeMutablePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                    _ = inet_pton(AF_INET6, address, &$0.pointee.sin6_addr)
                    return socklen_t(MemoryLayout<sockaddr_in6>.size)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                $0.pointee.sin_family = sa_family_t(AF_INET)
                $0.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                _ = inet_pton(AF_INET, address, &$0.pointee.sin_addr)
                return socklen_t(MemoryLayout<sockaddr_in>.size)
            }
        }
    }

    private static func port(of storage: sockaddr_storage, family: Int32) -> Int {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }
}

/// Why a ``BlackHoleListener`` could not be made.
public struct BlackHoleError: Error, CustomStringConvertible {
    /// What went wrong, naming the address.
    public let description: String

    init(_ description: String) { self.description = description }
}

private func closeSocket(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
