import Fixtures
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ftw-demobox` run out of file descriptors (`ulimit -n` lowered in its own shell, never in the test process):
/// more silent connections than it may hold make `accept` fail with EMFILE, and the relay must wait and keep
/// accepting rather than stop listening while the process looks alive.
@Suite struct DemoBoxDescriptorTests {
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

    /// A TCP connection to 127.0.0.1:`port` whose reads give up after `seconds`; -1 if it could not connect.
    private static func connectLoopback(_ port: Int, readTimeout seconds: Int = 10) -> Int32 {
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
    private static func statusLine(port: Int, within seconds: Int = 10) -> String {
        let descriptor = connectLoopback(port, readTimeout: seconds)
        defer { close(descriptor) }
        _ = upgrade.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        let head = String(decoding: buffer[..<max(0, count)], as: UTF8.self)
        return head.components(separatedBy: "\r\n").first ?? ""
    }

    @Test(.enabled(if: DemoBoxChild.executable != nil, "ftw-demobox is not built beside the test bundle (swift build)"))
    func theRelayKeepsAcceptingAfterRunningOutOfDescriptors() async throws {
        let box = try DemoBoxChild(executable: try #require(DemoBoxChild.executable), state: nil, descriptorLimit: 64)
        var lines = box.lines.makeAsyncIterator()
        let relayLine = try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("relay: ws://127.0.0.1:") })
        let port = try #require(Int(relayLine.dropFirst("relay: ws://127.0.0.1:".count)))

        // The starved connection waits 2 s for an answer that must not come: the box's 10 s handshake deadline
        // frees descriptors only well after it. The served one waits up to 30 s for the answer that must come, so a
        // loaded machine delays it rather than fails it.
        let (connected, starved, served) = try await OwnThread.run {
            let silent = (0..<100).map { _ in Self.connectLoopback(port) }
            let starved = Self.statusLine(port: port, within: 2)
            for descriptor in silent where descriptor >= 0 { close(descriptor) }
            return (silent.allSatisfy { $0 >= 0 }, starved, Self.statusLine(port: port, within: 30))
        }
        #expect(connected)
        #expect(starved.isEmpty)
        #expect(served == "HTTP/1.1 101 Switching Protocols", "the box said: \(box.standardError)")
        #expect(box.isRunning, "the box said: \(box.standardError)")
        #expect(await box.stop() == 0)
    }
}
