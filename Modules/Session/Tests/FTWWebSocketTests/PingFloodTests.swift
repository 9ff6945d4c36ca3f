import FTWClockSeam
import FTWClockSeamTesting
import FTWWebSocket
import Testing

/// A peer that pings faster than any honest one: each end answers at most `maxPingsPerWindow` pings per window,
/// with at most one pong waiting to be written, and closes the flooder with 1008.
@Suite struct PingFloodTests {
    private static let request = ServerHandshakeTests.request

    /// What the server sent after its 101 head, as events.
    private static func framesAfterHead(_ bytes: [UInt8]) throws -> [WebSocketEvent] {
        let terminator: [UInt8] = [13, 10, 13, 10]
        try #require(bytes.count >= 4, "the server sent \(bytes.count) bytes")
        let end = try #require((0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(terminator) })
        return try FrameBytes.events(Array(bytes[(end + 4)...]), role: .client)
    }

    @Test func aClientThatFloodsPingsIsClosedWith1008AfterItsBudget() async throws {
        let clock = ManualClock(originMs: 0)
        let mailbox = Mailbox<WebSocketError?>()
        try await withServer(clock: clock, handler: reportFirstReceive(to: mailbox)) { server in
            let raw = try RawTCPClient(port: server.port)
            let pings = (0..<1_000).flatMap { FrameBytes.masked(0x89, [UInt8($0 % 256), UInt8($0 / 256)]) }
            raw.write(Self.request + pings)
            let events = try Self.framesAfterHead(await raw.readToEnd())
            let pongs = events.filter { if case .pong = $0 { true } else { false } }
            #expect(pongs.count <= WebSocketLimits().maxPingsPerWindow)
            guard case .close(let code, let reason) = events.last else {
                Issue.record("no close frame: \(events.suffix(3))")
                return
            }
            #expect(code == WebSocketCloseCode.policyViolation)
            #expect(reason == "the peer sent more than 32 pings in 10.0 seconds")
            let failure = try #require(await mailbox.next() ?? nil)
            #expect(failure.code == .policyViolation)
            #expect(failure.closeCode == WebSocketCloseCode.policyViolation)
        }
    }

    @Test func pingsWithinTheBudgetOfEachWindowAreAnswered() async throws {
        let clock = ManualClock(originMs: 0)
        let limits = WebSocketLimits(maxPingsPerWindow: 4, pingWindow: .seconds(10))
        let mailbox = Mailbox<WebSocketError?>()
        try await withServer(limits: limits, clock: clock, handler: reportFirstReceive(to: mailbox)) { server in
            let raw = try RawTCPClient(port: server.port)
            let fourPings = (0..<4).flatMap { FrameBytes.masked(0x89, [UInt8($0)]) }
            raw.write(Self.request + fourPings)
            _ = await raw.read { $0.last == 3 }
            clock.advance(by: .seconds(10))
            raw.write(fourPings + FrameBytes.masked(0x81, Array("done".utf8)))
            #expect(try #require(await mailbox.next()) == nil)
        }
    }

    @Test func aPeerThatPingsFasterThanItReadsGetsFewerPongsTheLastCarryingTheNewestPing() async throws {
        let limits = WebSocketLimits(maxPingsPerWindow: 1_000_000)
        try await withServer(limits: limits, clock: ManualClock(originMs: 0), handler: echoHandler) { server in
            let raw = try RawTCPClient(port: server.port)
            let count = 20_000
            let pings = (0..<count).flatMap { FrameBytes.masked(0x89, [UInt8($0 / 256), UInt8($0 % 256)]) }
            let newest: [UInt8] = [0x8A, 0x02, UInt8((count - 1) / 256), UInt8((count - 1) % 256)]
            raw.write(Self.request + pings)
            let events = try Self.framesAfterHead(await raw.read { $0.suffix(4).elementsEqual(newest) })
            let pongs = events.compactMap { if case .pong(let payload) = $0 { payload } else { nil } }
            #expect(pongs.count < count)
            #expect(pongs.last == Array(newest.dropFirst(2)))
        }
    }

    @Test func aServerThatFloodsPingsIsClosedByTheClientWith1008() async throws {
        let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { request in
            guard let connection = try? request.accept() else { return }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<200 { group.addTask { try? await connection.ping() } }
            }
            try? await connection.send(.text("every ping was answered"))
            _ = try? await connection.receive()
        }
        try await withServer(handler: handler) { server in
            let client = try await connect(to: server)
            let failure = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(failure?.code == .policyViolation)
            #expect(failure?.closeCode == WebSocketCloseCode.policyViolation)
        }
    }
}
