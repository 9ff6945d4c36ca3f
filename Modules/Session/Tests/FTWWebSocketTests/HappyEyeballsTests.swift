import FTWClockSeamTesting
import FTWFixtures
import FTWSessionTestSupport
import Testing

@testable import FTWWebSocket

/// Happy Eyeballs (RFC 8305) in the dial, on loopback only: a black-holed address is a listener on ::1 whose accept
/// queue is full (its SYNs vanish), at the same port as the server on 127.0.0.1; the stagger runs on the manual clock.
@Suite struct HappyEyeballsTests {
    private static func dial(
        port: Int,
        host: String = "relay.test",
        clock: any Clock<Duration>,
        resolver: HostResolver
    ) async throws(WebSocketError) -> WebSocketConnection {
        try await WebSocketClient.connect(
            host: host,
            port: port,
            path: "/echo",
            limits: WebSocketLimits(),
            clock: clock,
            tls: nil,
            loop: nil,
            resolver: resolver
        )
    }

    @Test func theFamiliesTakeTurnsIPv6First() async throws {
        let resolved = try await HostResolver.answering(["127.0.0.1", "127.0.0.2", "::1", "127.0.0.3", "::2"])
            .addresses(of: "relay.test", port: 443)
        let order = HappyEyeballs<Int>.interleaved(resolved).map(\.text)
        #expect(order == ["::1", "127.0.0.1", "::2", "127.0.0.2", "127.0.0.3"])
    }

    /// The black-holed ::1 is tried first and hangs; the next address starts once the manual clock has moved the
    /// attempt delay, 250 ms, and wins.
    @Test func aBlackHoledFirstAddressGivesWayAfterTheAttemptDelay() async throws {
        try await withServer(handler: echoHandler) { server in
            let hole = try BlackHoleListener(address: "::1", port: server.port)
            defer { hole.close() }
            let clock = ManualClock(originMs: 0)
            async let dialled = Self.dial(port: server.port, clock: clock, resolver: .answering(["127.0.0.1", "::1"]))
            await clock.waitForSleepers(count: 2)  // the dial's deadline and the stagger
            #expect(clock.nextDeadline == clock.now.advanced(by: .milliseconds(250)))
            clock.advance(by: .milliseconds(250))
            let connection = try await dialled
            try await connection.send(.text("up"))
            #expect(try await connection.receive() == .text("up"))
            await connection.close()
        }
    }

    /// A refused first address gives way at once: the clock never moves.
    @Test func aRefusedFirstAddressGivesWayAtOnce() async throws {
        try await withServer(handler: echoHandler) { server in
            let clock = ManualClock(originMs: 0)
            let connection = try await Self.dial(
                port: server.port,
                clock: clock,
                resolver: .answering(["127.0.0.1", "::1"])
            )
            #expect(clock.nowMs == 0)
            await connection.close()
        }
    }

    @Test func aRefusedPortIsSaidOnceWithItsAddressAndCause() async throws {
        try await LoopbackTCP.withRefusingPort { port in
            let literal = await caught { () async throws(WebSocketError) in
                try await Self.dial(port: port, host: "127.0.0.1", clock: ContinuousClock(), resolver: .system)
            }
            #expect(literal?.code == .connectFailed)
            #expect(literal?.message == "127.0.0.1:\(port): connect: Connection refused")
            let named = await caught { () async throws(WebSocketError) in
                try await Self.dial(port: port, clock: ContinuousClock(), resolver: .answering(["127.0.0.1"]))
            }
            #expect(named?.message == "relay.test:\(port) (127.0.0.1): connect: Connection refused")
            let both = await caught { () async throws(WebSocketError) in
                try await Self.dial(port: port, clock: ContinuousClock(), resolver: .answering(["127.0.0.1", "::1"]))
            }
            #expect(
                both?.message
                    == "relay.test:\(port): ::1 connect: Connection refused; 127.0.0.1 connect: Connection refused"
            )
        }
    }

    @Test func aNameThatDoesNotResolveIsSaidOnceWithTheResolversReason() async throws {
        let server = try WebSocketServer(port: 0, limits: WebSocketLimits(), clock: ContinuousClock())
        await server.close()
        let error = await caught { () async throws(WebSocketError) in
            try await Self.dial(port: server.port, clock: ContinuousClock(), resolver: .answering(["no-such-relay"]))
        }
        #expect(error?.code == .connectFailed)
        #expect(error?.message == "no-such-relay:\(server.port): name lookup: Name or service not known")
    }
}
