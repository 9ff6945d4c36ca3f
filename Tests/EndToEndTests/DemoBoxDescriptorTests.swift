import FTWFixtures
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
            let silent = (0..<100).map { _ in LoopbackSocket.open(port) }
            let starved = LoopbackSocket.statusLine(port: port, within: 2)
            for descriptor in silent where descriptor >= 0 { close(descriptor) }
            return (silent.allSatisfy { $0 >= 0 }, starved, LoopbackSocket.statusLine(port: port, within: 30))
        }
        #expect(connected)
        #expect(starved.isEmpty)
        #expect(served == "HTTP/1.1 101 Switching Protocols", "the box said: \(box.standardError)")
        #expect(box.isRunning, "the box said: \(box.standardError)")
        #expect(await box.stop() == 0)
    }
}
