import Bus
import ClockSeam
import ClockSeamTesting
import Session
import SessionInterface
import Testing
import WebSocket

/// A carrier the client closes ends with a WebSocket close frame, over real sockets on 127.0.0.1: the relay reads
/// a normal closure (1000), not a dropped connection (1006). The session's clocks are manual and never advance, so
/// the close is answered by the echo, not by its deadline; each real-time wait is capped.
@Suite struct CleanCloseTests {
    struct Timeout: Error {}

    private static func until(_ condition: @Sendable () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(20))
        while !condition() {
            guard clock.now < deadline else { throw Timeout() }
            try await clock.sleep(for: .milliseconds(5))
        }
    }

    /// A relay that says `ready` and reads until the socket ends, and a session dialling it that `end` stops once
    /// message 1 has arrived; the run (session and relay) is cancelled right after `end`.
    ///
    /// - Returns: The close code the relay read for each socket.
    private static func closeCodes(ending end: @Sendable (LiveSession) async -> Void) async throws -> [UInt16] {
        let clock = ManualClock(originMs: SessionWorld.originMs)
        let server = try WebSocketServer(port: 0, limits: WebSocketLimits(), clock: clock)
        let received = Tally<Int>()
        let closeCodes = Tally<UInt16>()
        let session = LiveSession(
            dialer: RelayDialer(
                host: "127.0.0.1",
                port: server.port,
                rendezvousSecret: [UInt8](repeating: 0x33, count: 32),
                clock: clock,
                wallClock: clock
            ),
            identity: SessionIdentity(
                appStaticPrivateKey: ScriptedBox.appPrivateKey,
                boxStaticPublicKey: ScriptedBox.staticPublicKey,
                payload: []
            ),
            configuration: SessionConfiguration(build: "test"),
            clock: clock,
            wallClock: clock,
            random: SeededRandomSource(seed: 1),
            log: DiscardingLogSink(),
            events: EventBus()
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run { request in
                    guard let connection = try? request.accept() else { return }
                    try? await connection.send(.text("ready"))
                    while (try? await connection.receive()) != nil { received.note(1) }
                    closeCodes.note(connection.closeCode ?? 0)
                }
            }
            group.addTask { try await session.run() }
            await session.setPhase(.inactive)
            try await until { received.seen.count == 1 }
            await end(session)
            group.cancelAll()
        }
        try await until { closeCodes.seen.count == 1 }
        await server.close()
        return closeCodes.seen
    }

    @Test func theBackgroundClosesTheRelaySocketWithANormalClosure() async throws {
        let codes = try await Self.closeCodes { session in
            await session.setPhase(.background)
            await session.close()
        }
        #expect(codes == [WebSocketCloseCode.normalClosure])
    }

    @Test func theEndOfUseClosesTheRelaySocketWithANormalClosureBeforeTheSessionIsCancelled() async throws {
        let codes = try await Self.closeCodes { session in await session.close() }
        #expect(codes == [WebSocketCloseCode.normalClosure])
    }
}
