import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWFixtures
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// A box that floods a real socket on 127.0.0.1 with answers: the session refuses an answer past its bound with a
/// typed error as the flood arrives, and reads on afterwards (the flood's memory is `ftw-bench flood`'s to bound).
@Suite struct LoopbackFloodTests {
    private static let plan = Plan(rev: 1, uptimeMs: 1_000, slots: [], stale: false)

    /// Real-time deadlines long enough for a whole test run sharing two cores: what is tested is the bounds, not
    /// the deadlines (those run on a manual clock in `HostileAnswerTests`).
    private static let patientConfiguration = {
        var configuration = SessionConfiguration(build: "flood")
        configuration.timing.plan = .seconds(120)
        configuration.timing.apiSilence = .seconds(120)
        configuration.timing.historySilence = .seconds(120)
        configuration.timing.readTotal = .seconds(240)
        return configuration
    }()

    /// A live session dialling a hostile relay on the real clocks, running around `body`.
    private static func withHostileRelay(
        pings: Int = 0,
        replies: @escaping HostileRelay.Replies,
        _ body: @Sendable (LiveSession, HostileRelay, EventRecorder) async throws -> Void
    ) async throws {
        let relay = try HostileRelay(
            staticPrivateKey: ScriptedBox.staticPrivateKey,
            pings: pings,
            clock: ContinuousClock(),
            replies: replies
        )
        try await LoopbackWorld.run(relay, configuration: Self.patientConfiguration) { session, recorder in
            try await body(session, relay, recorder)
        }
    }

    private static func failure(of request: ReadRequest, on session: LiveSession) async -> SessionError? {
        do {
            _ = try await session.readAnswer(request, order: .rest, onChunk: nil)
            return nil
        } catch {
            return error
        }
    }

    /// Reads `request` through a flood of more than `messages` messages: it fails `.responseTooLarge`, and a plan read
    /// afterwards is answered.
    private static func refusal(
        of request: ReadRequest,
        on session: LiveSession,
        after messages: Int
    ) async
        -> SessionError?
    {
        let refused = await failure(of: request, on: session)
        #expect(refused?.code == .responseTooLarge)
        #expect(await failure(of: .plan, on: session) == nil)
        let traffic = await session.traffic
        #expect(traffic.receivedMessages > messages)
        return refused
    }

    @Test func anAPIChunkFloodIsRefusedAtTheAnswerCapAndReadsGoOn() async throws {
        try await Self.withHostileRelay(replies: { message in
            switch message {
            case .apiReq:
                [.apiHead(APIHead(status: 200, headers: ["Content-Type": "application/json"]))]
                    + (0..<700).map {
                        .apiChunk(APIChunk(seq: UInt32($0), data: [UInt8](repeating: 0x20, count: 12_288)))
                    }
            case .planGet: [.plan(Self.plan)]
            default: []
            }
        }) { session, _, _ in
            let failure = await Self.refusal(of: Reads.chargers, on: session, after: 700)
            #expect(failure?.message == "the answer passed 8388608 bytes")
        }
    }

    @Test func aHistChunkFloodIsRefusedAtTheQueryBoundAndReadsGoOn() async throws {
        try await Self.withHostileRelay(replies: { message in
            switch message {
            case .histQuery(let query):
                (0..<1_000).map { .histChunk(.filler(for: query, index: $0, bytes: 576)) }
            case .planGet: [.plan(Self.plan)]
            default: []
            }
        }) { session, _, _ in
            let failure = await Self.refusal(of: Reads.history, on: session, after: 1_000)
            #expect(failure?.message == "hist.query #1 got more than 6 tiles or a tile over 672 bytes")
        }
    }

    @Test func aRelayThatFloodsPingsIsClosedWith1008AndTheSessionDialsAgain() async throws {
        try await Self.withHostileRelay(pings: 2_000, replies: { _ in [] }) { _, relay, recorder in
            try await TimeLimit.within(.seconds(120), on: ContinuousClock(), "the third stream") {
                // At least three: the flood's closes and redials outrun a body that starts late, and a waiter that
                // first looks at the fourth stream must not wait for a third that is past.
                await recorder.wait { events in
                    events.filter { if case .connection(.streaming) = $0 { true } else { false } }.count >= 3
                }
            }
            // Real sockets: the flood may close the third stream before this reads, so these are lower bounds.
            let closes = await recorder.closes(since: 0).map(\.reason.message)
            let flooded = closes.filter {
                $0 == "the carrier closed (1008 the peer sent more than 32 pings in 10.0 seconds)"
            }
            #expect(flooded.count >= 2, "\(closes)")
            #expect(relay.connections >= 3)
        }
    }
}
