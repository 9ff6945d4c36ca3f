#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain TCP on 127.0.0.1 for tests that stand between a client and a server (a proxy that slows or breaks a link):
/// a listening socket on an ephemeral port, a connection to a port, and a port held so that it refuses.
public enum LoopbackTCP {
    /// A socket listening on 127.0.0.1 at `port` (0, the default: one the system chooses), and that port; nil when
    /// it cannot be made, as when another socket holds the port.
    public static func listening(port: Int = 0, backlog: Int32 = 8) -> (descriptor: Int32, port: Int)? {
        boundOnIPv4Loopback(port: port, listening: backlog)
    }

    /// A socket connected to 127.0.0.1:`port`; nil when nothing accepts there.
    public static func connected(to port: Int) -> Int32? {
        var address = loopback(port: port)
        return kept(socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0), at: &address) { descriptor, address, length in
            connect(descriptor, address, length) == 0
        }
    }

    /// Runs `body` with a port that refuses every connection on 127.0.0.1 and on ::1, and that no other socket can
    /// take while `body` runs: a port closed after use can be taken by a parallel test's listener, or by a client's
    /// own ephemeral port (TCP's self-connect), and the dial then meets a stranger instead of a refusal.
    public static func withRefusingPort<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let (descriptors, port) = try reservedPort()
        defer { descriptors.forEach { _ = close($0) } }
        return try await body(port)
    }

    /// Why a refusing port could not be reserved.
    public struct ReservationError: Error, CustomStringConvertible {
        /// The reason, naming the call that failed.
        public let description: String
    }

    private static func reservedPort() throws(ReservationError) -> ([Int32], Int) {
        for _ in 0..<16 {
            guard let (v4, port) = boundOnIPv4Loopback(port: 0, listening: nil) else {
                throw ReservationError(description: "127.0.0.1: bind: \(String(cString: strerror(errno)))")
            }
            if let v6 = boundOnIPv6Loopback(port: port) { return ([v4, v6], port) }
            close(v4)
        }
        throw ReservationError(description: "::1: no port free beside a free 127.0.0.1 port in 16 tries")
    }

    /// A socket bound to 127.0.0.1 at `port` (0: one the system chooses), listening when a backlog is given, and the
    /// port it has.
    private static func boundOnIPv4Loopback(port: Int, listening backlog: Int32?) -> (descriptor: Int32, port: Int)? {
        var address = loopback(port: port)
        let bound = kept(socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0), at: &address) { descriptor, address, length in
            bind(descriptor, address, length) == 0 && (backlog.map { listen(descriptor, $0) == 0 } ?? true)
                && getsockname(descriptor, address, &length) == 0
        }
        return bound.map { ($0, Int(UInt16(bigEndian: address.sin_port))) }
    }

    private static func boundOnIPv6Loopback(port: Int) -> Int32? {
        let v6 = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        var only: Int32 = 1
        setsockopt(v6, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        return kept(v6, at: &address) { descriptor, address, length in bind(descriptor, address, length) == 0 }
    }

    /// `descriptor` once `call` succeeded on it with `address` as a `sockaddr`; closed, and nil, when it failed.
    private static func kept<Address>(
        _ descriptor: Int32,
        at address: inout Address,
        _ call: (Int32, UnsafeMutablePointer<sockaddr>, inout socklen_t) -> Bool
    ) -> Int32? {
        var length = socklen_t(MemoryLayout<Address>.size)
        let succeeded = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(descriptor, $0, &length) }
        }
        guard succeeded else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
