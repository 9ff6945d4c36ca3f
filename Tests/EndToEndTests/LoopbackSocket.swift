import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw TCP to a demo box on 127.0.0.1: silent connections, and one Upgrade request's answer.
enum LoopbackSocket {
    private static let upgrade = Array(
        """
        GET /r/0/x/app HTTP/1.1\r
        Host: 127.0.0.1\r
        Upgrade: websocket\r
        Connection: Upgrade\r
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
        Sec-WebSocket-Version: 13\r
        \r

        """.utf8
    )

    /// Raises this process's soft descriptor limit to at least `count` (never past the hard limit), so a test can
    /// hold a thousand sockets where the default is 1024; a child started afterwards inherits it.
    static func allowDescriptors(_ count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// A TCP connection to 127.0.0.1:`port` whose reads give up after `seconds`; -1 if it could not connect.
    static func open(_ port: Int, readTimeout seconds: Int = 10) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// The first line of the answer to an Upgrade request on a fresh connection; empty when none comes in time.
    static func statusLine(port: Int, within seconds: Int = 10) -> String {
        let descriptor = open(port, readTimeout: seconds)
        defer { close(descriptor) }
        _ = upgrade.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        let head = String(decoding: buffer[..<max(0, count)], as: UTF8.self)
        return head.components(separatedBy: "\r\n").first ?? ""
    }
}
