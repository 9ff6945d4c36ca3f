import FTWBus
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// When the pairing code may leave (protocol.md §8.1, §8.2): the box enrols the key when it takes message 1, so an
/// offer without a clear answer is followed by a greeting as a known device, and the code leaves again only when
/// the box has refused that greeting and never heard the code. Message 1 is 112 bytes with the code, 96 without.
@Suite struct CodeOfferTests {
    private static let withCode = 112
    private static let greeting = 96

    /// A session enrolling with the code against a box that leaves handshakes unanswered (`silent`) until told
    /// otherwise.
    private static func enrolling(
        codeMayBeSpent: Bool = false,
        silent: Bool = true,
        _ body: @Sendable (SessionWorld) async throws -> Void
    ) async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0]),
            payload: SessionWorld.pairingCode,
            codeMayBeSpent: codeMayBeSpent,
            setUp: { box in await box.configure { $0.answersHandshakes = !silent } },
            body
        )
    }

    /// Comes to the front, and cuts the carrier 0.7 s later: message 1 has left, no answer has come.
    private static func cutAfterTheOffer(_ world: SessionWorld) async {
        await world.comeToFront()
        await world.advance(by: .milliseconds(700))
        await world.box.close(code: 1006)
    }

    /// Found by the pairing rules' end-to-end test: a box counts every message 1 with a pairing code as a guess, so a
    /// second offer after a silence spent a second guess (four wrong codes burned the link).
    @Test func aCodeMetBySilenceIsFollowedByOneGreetingAndThenRefusedAndNeverSentAgain() async throws {
        try await Self.enrolling { world in
            await world.comeToFront()
            await world.advance(by: .seconds(120))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.atMs) == [3_000, 6_000], "an enrolment on a quick link takes short turns")
            #expect(closes.map(\.reason.code) == [.handshakeUnanswered, .refused])
            #expect(closes.last?.reason.message.contains("refused the code") == true)
            #expect(world.dialer.carriers.map(\.sent.bytes) == [Self.withCode, Self.greeting])
        }
    }

    /// The issue's phone stranded for good: the carrier cut after the box took the code and before its answer came,
    /// and every later try offered the spent code.
    @Test func anOfferCutBeforeItsAnswerIsFollowedByAGreetingWhichTheBoxThatEnrolledThePhoneAnswers() async throws {
        try await Self.enrolling { world in
            await Self.cutAfterTheOffer(world)
            await world.box.configure { $0.answersHandshakes = true }
            await world.advance(by: .seconds(5))
            guard case .streaming = await world.session.connectionState else {
                Issue.record("the box that took the code was not greeted as a known device")
                return
            }
            #expect(world.dialer.carriers.map { $0.sent.messages > 0 } == [true, true])
            #expect(world.dialer.carriers.first?.sent.bytes == Self.withCode)
            #expect(await world.box.handshakePayloads == [[]], "the code left once")
            #expect(await world.session.identity.isKnownDevice)
        }
    }

    @Test func aGreetingTheBoxRefusesAfterAnOfferItNeverHeardOffersTheCodeAgain() async throws {
        try await Self.enrolling { world in
            await Self.cutAfterTheOffer(world)
            await world.advance(by: .seconds(4))
            #expect(world.dialer.carriers.map(\.sent.bytes) == [Self.withCode, Self.greeting, Self.withCode])
            await world.box.answerHandshake()
            await world.advance(by: .seconds(1))
            #expect(await world.box.handshakePayloads == [SessionWorld.pairingCode])
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.code) == [.carrierLost, .handshakeUnanswered])
            #expect(closes.last?.reason.message.contains("offering the pairing code next") == true)
        }
    }

    @Test func aCodeThatMayHaveReachedTheBoxBeforeIsOfferedOnlyAfterAGreeting() async throws {
        try await Self.enrolling(codeMayBeSpent: true, silent: false) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            #expect(world.dialer.carriers.first?.sent.messages ?? 0 >= 1)
            #expect(await world.box.handshakePayloads == [[]])
            #expect(await world.session.identity.isKnownDevice)
        }
    }

    @Test func aBackgroundDuringAnOfferMakesTheNextReturnGreetFirst() async throws {
        try await Self.enrolling { world in
            await world.comeToFront()
            await world.advance(by: .milliseconds(500))
            await world.session.setPhase(.background)
            await world.box.configure { $0.answersHandshakes = true }
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            #expect(await world.box.handshakePayloads == [[]])
        }
    }
}
