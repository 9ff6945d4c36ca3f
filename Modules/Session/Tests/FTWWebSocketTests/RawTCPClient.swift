import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare TCP client for sending the server bytes no well-behaved WebSocket client would send.
///
/// Reads give up after `readTimeout` seconds (`SO_RCVTIMEO`, ten unless told), so a server that never answers fails
/// the test instead of hanging it. Reads run on a thread of their own, off Swift's cooperative pool, where the server's handlers run.
final class RawTCPClient: Sendable {
    private let descriptor: Int32

    init(port: Int, readTimeout: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw RawTCPError.connectFailed }
    }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it ends TCP (or ten quiet seconds pass).
    func readToEnd() async -> [UInt8] {
        await read { _ in false }
    }

    /// What the server sends until `isEnough` says so, TCP ends, or ten quiet seconds pass.
    func read(until isEnough: @escaping @Sendable ([UInt8]) -> Bool) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.readBlocking(until: isEnough)) }.start()
        }
    }

    private func readBlocking(until isEnough: ([UInt8]) -> Bool) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while !isEnough(received) {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return received
    }
}

enum RawTCPError: Error {
    case connectFailed
}
