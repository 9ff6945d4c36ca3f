import FTWSocketLoop
import FTWWebSocket
import Foundation
import Testing

/// A server's close shuts its port before it returns: a client that comes afterwards is refused at once, not taken
/// into the old backlog and reset (a dial that expected "refused" read "reset by peer" in a full run).
@Suite struct ServerCloseTests {
    @Test func aConnectAfterTheCloseReturnedIsRefused() async throws {
        let loop = try EventLoop(name: "test.server")
        defer { loop.shutdown() }
        let server = try WebSocketServer(port: 0, limits: patientLimits, clock: ContinuousClock(), loop: loop)
        let port = server.port
        // The loop is held, so the socket closes only when the loop comes to it; a close that returned without
        // waiting for that left the port open here. The hold ends after 200 ms, or at once when the check is done.
        let held = DispatchSemaphore(value: 0)
        loop.execute { held.wait() }
        let release = Task {
            try? await ContinuousClock().sleep(for: .milliseconds(200))
            held.signal()
        }
        await server.close()
        #expect(throws: RawTCPError.connectFailed) { try RawTCPClient(port: port) }
        release.cancel()
        await release.value
    }
}
