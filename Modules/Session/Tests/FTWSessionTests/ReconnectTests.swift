import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// The app's reconnect rules (protocol.md §8.3) and the failures a person is told apart, on the manual clock.
@Suite struct ReconnectTests {
    @Test func aBoxThatNeverAnswersHelloIsLeftAfterTwelveSecondsAndRedialledWithTheHandshakesBackoff() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0.5]),
            setUp: { await $0.configure { $0.answersHello = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(14))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.atMs) == [12_000])
            #expect(closes.map(\.reason.code) == [.helloUnanswered])
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 13_500], "half of 3 s")
            #expect(world.dialer.carriers.first?.isClosed == true)
            #expect(await world.box.received.map(\.message.type) == ["hello", "hello"])
        }
    }

    /// A `hello_ok` whose body does not read is the box sending what it should not, said at once rather than read as
    /// silence until the hello deadline 12 s later.
    @Test func aHelloOKThatDoesNotReadEndsTheGreetingAtOnce() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.answersHello = false } }) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            let hello = Envelope(type: "hello_ok", body: ["proto": "malformed"])
            await world.box.injectFrame(try Frame(lane: .bulk, payload: hello.encoded()).encoded())
            await world.advance(by: .milliseconds(10))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.atMs) == [1_000])
            #expect(closes.map(\.reason.code) == [.boxMisbehaved])
            #expect(closes.first?.reason.message.hasPrefix("the box sent what it should not: a hello_ok") == true)
        }
    }

    @Test func aReturnThatHearsNothingInTwoAndAHalfSecondsRedialsOnceWithTheShortDeadline() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0]),
            setUp: { await $0.configure { $0.answersHandshakes = false } }
        ) { world in
            world.dialer.hold(honouringCancellation: true)
            await world.comeToFront()
            await world.advance(by: .milliseconds(2_499))
            #expect(world.dialer.dialCount == 1)
            await world.advance(by: .milliseconds(1))
            #expect(world.dialer.dialCount == 2)
            world.dialer.release()
            await world.advance(by: .seconds(60))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.prefix(2).map(\.atMs) == [2_500, 5_500])
            #expect(closes.prefix(2).map(\.reason.code) == [.carrierLost, .handshakeUnanswered])
            let dials = await world.recorder.dialTimes(since: SessionWorld.originMs)
            #expect(dials.prefix(3) == [0, 2_500, 5_500])
        }
    }

    @Test func aReturnThatHearsTheRelayKeepsItsCarrier() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(60))
            #expect(world.dialer.dialCount == 1)
            #expect(await world.recorder.closes(since: SessionWorld.originMs).isEmpty)
        }
    }

    @Test func anEmptyRoomReadsAsABoxOfflineAndKeepsWaitingForReady() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.saysReady = false } }) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(60))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.code) == [.carrierLost, .boxOffline])
            #expect(closes.map(\.atMs) == [2_500, 14_500])
            #expect(world.dialer.dialCount == 2)
            await world.box.signal("ready")
            await world.advance(by: .seconds(1))
            guard case .streaming = await world.session.connectionState else {
                Issue.record("the box came and no stream ran")
                return
            }
        }
    }

    @Test func theFirstFrameDeliveredResetsTheBackoff() async throws {
        try await SessionWorld.run(random: ScriptedRandom([0.999_999])) { world in
            world.dialer.failNextDials(3)
            await world.comeToFront()
            await world.advance(by: .seconds(10))
            await world.box.close()
            await world.advance(by: .seconds(10))
            let dials = await world.recorder.dialTimes(since: SessionWorld.originMs)
            #expect(zip(dials.dropFirst(), dials).map { $0 - $1 }.prefix(3) == [499, 999, 1_999])
            #expect(dials.count == 5)
            #expect(dials[4] - 10_000 == 499)
        }
    }

    /// protocol.md §8.3, from the reference app's NoiseCarrier: a handshake the box in its room leaves unanswered is
    /// tried again after `random × min(60 s, 3 s · 2^attempt)`, not the carrier's 500 ms backoff: a busy or
    /// restarting box is not asked again within half a second.
    @Test func aBoxSilentToTheHandshakeIsAskedAgainAfterTheHandshakesBackoff() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0.999_999]),
            setUp: { await $0.configure { $0.answersHandshakes = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(120))
            let closes = await world.recorder.closes(since: SessionWorld.originMs).map(\.atMs)
            let dials = await world.recorder.dialTimes(since: SessionWorld.originMs)
            #expect(closes.prefix(4) == [3_000, 17_999, 35_998, 59_997], "3 s after the return, then 12 s each")
            #expect(zip(dials.dropFirst(), closes).map { $0 - $1 }.prefix(4) == [2_999, 5_999, 11_999, 23_999])
        }
    }

    /// The two backoffs count apart: failed handshakes do not lengthen the wait after a failed dial, and failed dials
    /// do not lengthen the wait after a silent box.
    @Test func thePathsAndTheBoxsFailuresEachGrowTheirOwnBackoff() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0.999_999]),
            setUp: { await $0.configure { $0.answersHandshakes = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(21))
            world.dialer.failNextDials(2)
            await world.advance(by: .seconds(40))
            let dials = await world.recorder.dialTimes(since: SessionWorld.originMs)
            #expect(dials.prefix(5) == [0, 5_999, 23_998, 24_497, 25_496], "box 3 s, 6 s; then path 0.5 s, 1 s")
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.prefix(4).map(\.reason.code) == [.handshakeUnanswered, .refused, .dialFailed, .dialFailed])
            #expect(Array(dials.dropFirst(5).prefix(1)) == [25_496 + 12_000 + 11_999], "the box's third: 12 s")
        }
    }

    @Test func aCommandWhileTheCarrierIsDownFailsAtOnceAndNothingWaitsForTheNextSession() async throws {
        try await SessionWorld.run(random: ScriptedRandom([0.5])) { world in
            await world.comeToFront()
            await world.box.close()
            await world.simulation.settle()
            let outcome = await world.command(CommandRequest(op: "site.mode.set", args: ["mode": .text("idle")]))
            #expect(outcome?.errorCode == .carrierLost)
            await world.advance(by: .seconds(2))
            #expect(await world.box.requests.isEmpty)
        }
    }
}
