import FTWBus
import FTWClockSeam
import FTWFixtures
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// What the relay and the box's side say before the box answers, over real sockets on 127.0.0.1: the relay's
/// "slow down" by name and a join again within seconds, junk as junk. Deadlines are shortened so the wall clock
/// costs little; what is tested is the words and the path, their timing runs on the manual clock elsewhere.
@Suite struct LoopbackLinkTests {
    private static let quick = {
        var configuration = SessionConfiguration(build: "loopback")
        configuration.timing.foregroundHandshake = .milliseconds(500)
        configuration.timing.slowDownRetry = .milliseconds(200)
        return configuration
    }()

    /// Every close's reason, once the session has reached `state` (within 20 s of the wall clock).
    private static func closes(
        _ recorder: EventRecorder,
        once state: @escaping @Sendable (ConnectionState) -> Bool
    ) async throws -> [SessionError] {
        try await TimeLimit.within(.seconds(20), on: ContinuousClock(), "the connection's state") {
            await recorder.wait { $0.contains { if case .connection(let now) = $0 { state(now) } else { false } } }
        }
        return await recorder.connectionStates.compactMap { state in
            if case .closed(let reason) = state { reason } else { nil }
        }
    }

    @Test func aRelayThatAsksToSlowDownIsNamedAndJoinedAgainUntilItLetsThePhoneIn() async throws {
        let relay = try HostileRelay(
            staticPrivateKey: ScriptedBox.staticPrivateKey,
            refusedJoins: 3,
            clock: ContinuousClock(),
            replies: { _ in [] }
        )
        try await LoopbackWorld.run(relay, configuration: Self.quick) { _, recorder in
            let closes = try await Self.closes(recorder) { if case .streaming = $0 { true } else { false } }
            #expect(closes.map(\.code) == [.relaySlowDown, .relaySlowDown, .relaySlowDown])
            #expect(closes.allSatisfy { $0.message.hasPrefix("the relay asked to slow down") })
        }
    }

    @Test func junkFromTheBoxsSideIsNamedAsSuch() async throws {
        let relay = try HostileRelay(
            staticPrivateKey: ScriptedBox.staticPrivateKey,
            junk: [[1, 2, 3], [UInt8](repeating: 9, count: 100)],
            clock: ContinuousClock(),
            replies: { _ in [] }
        )
        try await LoopbackWorld.run(relay, configuration: Self.quick) { _, recorder in
            let closes = try await Self.closes(recorder) { if case .closed = $0 { true } else { false } }
            let first = try #require(closes.first)
            #expect(first.code == .boxMisbehaved)
            #expect(first.message.hasPrefix("the box sent what it should not: 2 messages"))
        }
    }
}
