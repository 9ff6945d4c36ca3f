import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWFixtures
import FTWSession
import FTWSessionInterface
import FTWWebSocket
import Testing

/// A carrier the client closes ends with a WebSocket close frame, over real sockets on 127.0.0.1: the relay reads
/// a normal closure (1000), not a dropped connection (1006). The session's clocks are manual and never advance, so
/// the close is answered by the echo, not by its deadline; each real-time wait is capped.
@Suite struct CleanCloseTests {
    /// What the relay saw of a socket, in order.
    private enum RelaySaw: Sendable {
        case message
        case closed(UInt16)
    }

    /// The relay's stream ended before it saw what was awaited.
    struct RelayEnded: Error {}

    /// The first thing the relay saw that `matches`, waiting at most 20 s of real time.
    private static func first<T: Sendable>(
        _ saw: AsyncStream<RelaySaw>,
        _ what: String,
        _ matches: @escaping @Sendable (RelaySaw) -> T?
    ) async throws -> T {
        try await TimeLimit.within(.seconds(20), on: ContinuousClock(), what) {
            for await event in saw { if let found = matches(event) { return found } }
            throw RelayEnded()
        }
    }

    /// A relay that says `ready` and reads until the socket ends, and a session dialling it that `end` stops once
    /// message 1 has arrived; the run (session and relay) is cancelled right after `end`.
    ///
    /// - Returns: The close code the relay read for the socket.
    private static func closeCode(ending end: @Sendable (LiveSession) async -> Void) async throws -> UInt16 {
        let clock = ManualClock(originMs: SessionWorld.originMs)
        let server = try WebSocketServer(port: 0, limits: WebSocketLimits(), clock: clock)
        let (saw, relaySaw) = AsyncStream.makeStream(of: RelaySaw.self)
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
                    while (try? await connection.receive()) != nil { relaySaw.yield(.message) }
                    relaySaw.yield(.closed(connection.closeCode ?? 0))
                }
            }
            group.addTask { try await session.run() }
            await session.setPhase(.inactive)
            _ = try await first(saw, "message 1 at the relay") { if case .message = $0 { true } else { nil } }
            await end(session)
            group.cancelAll()
        }
        let code = try await first(saw, "the relay's socket closing") {
            if case .closed(let code) = $0 { code } else { nil }
        }
        await server.close()
        return code
    }

    @Test func theBackgroundClosesTheRelaySocketWithANormalClosure() async throws {
        let code = try await Self.closeCode { session in
            await session.setPhase(.background)
            await session.close()
        }
        #expect(code == WebSocketCloseCode.normalClosure)
    }

    @Test func theEndOfUseClosesTheRelaySocketWithANormalClosureBeforeTheSessionIsCancelled() async throws {
        let code = try await Self.closeCode { session in await session.close() }
        #expect(code == WebSocketCloseCode.normalClosure)
    }
}
