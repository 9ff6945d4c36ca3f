import FTWBus
import FTWClockSeamTesting
import FTWCrypto
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// What a deadline that passes without the box's answer means, told apart as a person needs it: a silence that
/// counts towards "the box no longer knows this phone" only on a quiet, quick link; "no answer in time" when bytes
/// of a message are still arriving or the link is too slow for the deadline; "the box sent what it should not" when
/// its side sent what no box sends. Another phone's traffic in the room is none of these.
@Suite struct LinkJudgementTests {
    /// The link at 1 byte a second: everything after the upgrade ended "it no longer knows this phone".
    @Test func aMessageStillArrivingWhenTheHandshakesDeadlinePassesIsNoAnswerInTimeNotASilence() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0]),
            setUp: { await $0.configure { $0.answersHandshakes = false } }
        ) { world in
            await world.comeToFront()
            for deadline in [3, 12, 12] {
                await world.advance(by: .milliseconds(100))
                await world.box.trickle(3)
                await world.advance(by: .seconds(deadline))
            }
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.count == 3)
            #expect(closes.allSatisfy { $0.reason.code == .slowLink })
            #expect(closes.allSatisfy { $0.reason.message.hasPrefix("no answer in time: 3 bytes of a message") })
        }
    }

    /// The return's watchdog judges by bytes too: a relay that trickles its first word is a slow path, not a dead one.
    @Test func aFirstMessageStillArrivingAfterAReturnKeepsTheCarrier() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.saysReady = false } }) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            await world.box.trickle(2)
            await world.advance(by: .seconds(2))
            #expect(world.dialer.dialCount == 1)
            #expect(await world.recorder.closes(since: SessionWorld.originMs).isEmpty)
        }
    }

    @Test func junkFromTheBoxsSideIsTheBoxSendingWhatItShouldNotNotASlowLink() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0]),
            setUp: { await $0.configure { $0.answersHandshakes = false } }
        ) { world in
            await world.comeToFront()
            for _ in 0..<2 {
                await world.advance(by: .seconds(1))
                await world.box.inject([UInt8](repeating: 7, count: 64))
            }
            await world.advance(by: .seconds(1))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.code) == [.boxMisbehaved])
            #expect(closes.first?.reason.message.hasPrefix("the box sent what it should not: 2 messages") == true)
        }
    }

    @Test func anotherPhonesRepliesAndFramesLeaveTheLinkQuietSoTheBoxsSilenceStillCounts() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0]),
            setUp: { await $0.configure { $0.answersHandshakes = false } }
        ) { world in
            await world.comeToFront()
            for size in [48, 536, 1_048, 280] {
                await world.advance(by: .seconds(1))
                await world.box.inject(SecureRandom.bytes(count: size))
            }
            await world.advance(by: .seconds(20))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.code) == [.handshakeUnanswered, .refused])
        }
    }

    /// The slow link, 6.5 s each way: the box knew the phone, and the client said it no longer did. A
    /// relay that takes longer than half the handshake's deadline to let the phone in leaves no time for an answer;
    /// one that is quick leaves the silence to the box.
    @Test(arguments: [(Int64(6_500), SessionError.Code.slowLink), (1_000, .handshakeUnanswered)])
    func aSilenceCountsOnlyWhenTheRelayLetThePhoneInWithinHalfTheDeadline(
        readyAfterMs: Int64,
        verdict: SessionError.Code
    ) async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0]),
            setUp: { await $0.configure { $0.saysReady = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .milliseconds(2_500))
            #expect(world.dialer.dialCount == 2, "the return heard nothing for 2.5 s and dialled again")
            await world.box.configure { $0.answersHandshakes = false }
            await world.advance(by: .milliseconds(readyAfterMs))
            await world.box.signal("ready")
            await world.advance(by: .seconds(4))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.code) == [.carrierLost, verdict])
            if verdict == .slowLink {
                #expect(closes.last?.reason.message.hasPrefix("no answer in time: the relay took 6.5 seconds") == true)
            }
        }
    }

    @Test func aHelloLeftUnansweredWhileItsAnswerIsStillArrivingIsNoAnswerInTime() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0.5]),
            setUp: { await $0.configure { $0.answersHello = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            await world.box.trickle(100)
            await world.advance(by: .seconds(12))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.code) == [.slowLink])
        }
    }
}
