import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy on 127.0.0.1 that holds every chunk for a fixed delay in each direction: a slow network between a
/// client and a server on loopback, so round trips (TCP, TLS, WebSocket, Noise) cost what they cost on a phone.
///
/// Each direction of each connection has one reading thread and one serial queue that writes each chunk once its
/// delay is up, in order. Runs until the process ends.
final class LatencyProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let target: Int
    private let delay: Duration

    init(to target: Int, oneWay delay: Duration) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        self.listener = listener
        self.target = target
        self.delay = delay
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { self.acceptLoop() }.start()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var enabled: Int32 = 1
            _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = setsockopt(upstream, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, socklen_t(MemoryLayout<Int32>.size))
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard connected else {
                close(client)
                close(upstream)
                continue
            }
            let ends = Ends(client: client, upstream: upstream)
            Thread { self.relay(from: client, to: upstream, ends: ends) }.start()
            Thread { self.relay(from: upstream, to: client, ends: ends) }.start()
        }
    }

    /// Copies `source` to `target`, each chunk after the delay; the last direction to end closes both sockets.
    private func relay(from source: Int32, to target: Int32, ends: Ends) {
        let queue = DispatchQueue(label: "latency proxy")
        let nanoseconds = Int(delay / .nanoseconds(1))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            let due = DispatchTime.now() + .nanoseconds(nanoseconds)
            guard count > 0 else {
                queue.asyncAfter(deadline: due) {
                    shutdown(target, Int32(SHUT_WR))
                    ends.finishOne()
                }
                return
            }
            let bytes = Array(chunk[..<count])
            queue.asyncAfter(deadline: due) {
                _ = bytes.withUnsafeBytes { send(target, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return address
    }
}

/// The two sockets of one proxied connection, closed once both directions have ended.
private final class Ends: Sendable {
    private let client: Int32
    private let upstream: Int32
    private let remaining = Mutex(2)

    init(client: Int32, upstream: Int32) {
        self.client = client
        self.upstream = upstream
    }

    func finishOne() {
        let isLast = remaining.withLock { remaining in
            remaining -= 1
            return remaining == 0
        }
        if isLast {
            close(client)
            close(upstream)
        }
    }
}
