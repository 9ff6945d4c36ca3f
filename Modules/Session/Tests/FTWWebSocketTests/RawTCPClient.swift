import FTWFixtures
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare TCP client for sending the server bytes no well-behaved WebSocket client would send.
///
/// Reads give up after `readTimeout` quiet seconds (`SO_RCVTIMEO`, a minute unless told: a full run shares two
/// cores, and ten seconds of waiting for a turn failed whole suites), so a server that never answers fails the test
/// instead of hanging it. Reads and writes run off Swift's cooperative pool, where the server's handlers run.
final class RawTCPClient: Sendable {
    private let descriptor: Int32
    /// Sends in order, off Swift's cooperative pool.
    private let writer = DispatchQueue(label: "raw-tcp-client.writer")

    init(port: Int, readTimeout: Int = 60) throws {
        guard let descriptor = LoopbackTCP.connected(to: port) else { throw RawTCPError.connectFailed }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Queues `bytes` to be sent after whatever was queued before, and returns at once.
    ///
    /// The send blocks until the server reads, and a server reads past its request only once its handler, a task on
    /// the cooperative pool, has accepted: blocking a pool thread on it (two on this machine) starved the handlers of
    /// every concurrent test in a full run, and three tests got no answer within their 60 s.
    func write(_ bytes: [UInt8]) {
        writer.async { self.sendAll(bytes) }
    }

    /// Holds `self`, so the descriptor stays open until the queued bytes are sent or the server has gone.
    private func sendAll(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Everything the server sends until it ends TCP (or the read timeout passes).
    func readToEnd() async -> [UInt8] {
        await read { _ in false }
    }

    /// What the server sends until `isEnough` says so, TCP ends, or the read timeout passes.
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
