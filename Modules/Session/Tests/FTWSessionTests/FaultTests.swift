import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// What the session does when things go wrong: a carrier drops, the relay corrects our epoch, the box ends the
/// session or speaks another protocol.
@Suite struct FaultTests {
    @Test func aDropMidRequestFailsTheReadOnTheWireAndKeepsTheQueuedOnesForTheNextSession() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.plan, order: .plan)
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.chargers, order: .chargers)
                await reads.ask(Reads.prefs, order: .prefs)
                await world.box.configure { $0.holding = false }
                await world.box.close(code: 1006, reason: "")
                await world.simulation.settle()
                #expect(await reads.results.errorCodes(of: Reads.plan) == [.carrierLost])
                #expect(await reads.results.settled.count == 1)
                await world.advance(by: .seconds(2))
            }
            let sent = await world.box.requests
            #expect(sent.map(\.read) == [Reads.plan, Reads.chargers, Reads.prefs])
            #expect(sent.map(\.connection) == [1, 2, 2])
            #expect(await results.results(of: Reads.plan).count == 1)
            #expect(await results.errorCodes(of: Reads.chargers).isEmpty)
            #expect(await results.errorCodes(of: Reads.prefs).isEmpty)
            #expect(
                await world.recorder.streamChanges == [
                    .streamReturned(connection: 1), .streamLost(reason: "the carrier closed (1006)"),
                    .streamReturned(connection: 2),
                ]
            )
        }
    }

    @Test func requestIDsStartAtOneInEachSession() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            _ = await world.read(Reads.chargers, order: .chargers)
            _ = await world.read(Reads.plan, order: .plan)
            await world.box.close()
            await world.advance(by: .seconds(2))
            _ = await world.read(Reads.status, order: .status)
            #expect(await world.box.requests.map(\.id) == [1, 2, 1])
            #expect(await world.box.requests.map(\.connection) == [1, 1, 2])
        }
    }

    @Test func requestIDsWrapFromTheLargestU32BackToOne() async throws {
        var configuration = SessionConfiguration(build: "test")
        configuration.firstRequestID = .max - 1
        try await SessionWorld.run(configuration: configuration) { world in
            await world.comeToFront()
            for read in [Reads.chargers, Reads.plan, Reads.status] { _ = await world.read(read, order: .rest) }
            #expect(await world.box.requests.map(\.id) == [.max - 1, .max, 1])
        }
    }

    @Test func failedDialsBackOffWithFullJitter() async throws {
        let random = ScriptedRandom([0.5, 0.25, 0.75, 0.1])
        try await SessionWorld.run(random: random) { world in
            world.dialer.failNextDials(3)
            await world.comeToFront()
            await world.advance(by: .seconds(5))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 250, 500, 2_000])
            await world.box.close()
            await world.advance(by: .seconds(5))
            let times = await world.recorder.dialTimes(since: SessionWorld.originMs)
            #expect(times.dropFirst(4).map { $0 - 5_000 } == [50])
        }
    }

    @Test func theBackoffCeilingDoublesUpToOneMinute() async throws {
        try await SessionWorld.run(random: ScriptedRandom([0.999_999])) { world in
            world.dialer.failNextDials(9)
            await world.comeToFront()
            await world.advance(by: .seconds(300))
            let times = await world.recorder.dialTimes(since: SessionWorld.originMs)
            let waits = zip(times.dropFirst(), times).map { $0 - $1 }
            #expect(waits == [499, 999, 1_999, 3_999, 7_999, 15_999, 31_999, 59_999, 59_999])
        }
    }

    @Test func aWrongEpochRedialsAtOnceTwiceThenBacksOff() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0.5]),
            setUp: { await $0.configure { $0.saysReady = false } }
        ) { world in
            await world.comeToFront()
            for _ in 0..<3 {
                await world.box.close(code: RelayCloseCode.wrongEpoch, reason: "493000")
                await world.simulation.settle()
            }
            await world.advance(by: .seconds(1))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 0, 0, 250])
        }
    }

    @Test func aRotatedEpochRedialsAfterARandomWaitOfUpToThreeSeconds() async throws {
        try await SessionWorld.run(random: ScriptedRandom([0.5])) { world in
            await world.comeToFront()
            await world.box.close(code: RelayCloseCode.rotated, reason: "493001")
            await world.advance(by: .seconds(5))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 1_500])
        }
    }

    @Test func goneEndsTheNoiseSessionButKeepsTheCarrierAndReadyShakesHandsAgain() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                await reads.ask(Reads.plan, order: .plan)
                await world.advance(by: .seconds(1))
                await world.box.signal("gone")
                await world.advance(by: .seconds(60))
                #expect(await reads.results.errorCodes(of: Reads.plan) == [.carrierLost])
                #expect(
                    await world.session.connectionState == .closed(reason: SessionError(.boxOffline, "box offline"))
                )
                await world.box.configure { $0.holding = false }
                await reads.ask(Reads.chargers, order: .chargers)
                await world.box.signal("ready")
                await world.advance(by: .seconds(1))
            }
            #expect(world.dialer.dialCount == 1)
            #expect(await world.box.handshakePayloads.count == 2)
            #expect(await world.box.requests.map(\.connection) == [1, 2])
            #expect(
                await world.recorder.streamChanges == [
                    .streamReturned(connection: 1), .streamLost(reason: "box offline"),
                    .streamReturned(connection: 2),
                ]
            )
        }
    }

    @Test(arguments: [("revoked", "revoked"), ("box_shutdown", "box_shutdown"), ("moved_on", "superseded")])
    func sessionTerminateEndsTheSessionWithItsReasonAndDoesNotRedial(sent: String, read: String) async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.plan, order: .plan)
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.chargers, order: .chargers)
                await world.box.push(.sessionTerminate(SessionTerminate(reason: TerminateReason(rawValue: sent))))
                await world.advance(by: .seconds(300))
                await reads.ask(Reads.status, order: .status)
            }
            #expect(await world.recorder.events.contains(.terminated(reason: read)))
            for request in [Reads.plan, Reads.chargers, Reads.status] {
                #expect(await results.errorCodes(of: request) == [.terminated])
            }
            #expect(world.dialer.dialCount == 1)
            #expect(world.dialer.carriers.allSatisfy { $0.isClosed })
        }
    }

    @Test func aBoxOutsideOurProtocolRangeFailsTypedAndIsNotDialledAgain() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.helloProto = 7 } }) { world in
            let results = try await world.withReads { reads in
                await reads.ask(Reads.chargers, order: .chargers)
                await world.comeToFront()
                await world.advance(by: .seconds(300))
            }
            #expect(await results.errorCodes(of: Reads.chargers) == [.incompatibleProtocol])
            #expect(world.dialer.dialCount == 1)
            #expect(await world.box.requests.isEmpty)
            guard case .closed = await world.session.connectionState else {
                Issue.record("the session did not close")
                return
            }
        }
    }

    @Test func aBootingBoxIsGreetedEveryFiveSecondsAndAskedNothingUntilItIsUp() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.helloModes = ["booting", "booting"] } }) { world in
            _ = try await world.withReads { reads in
                await reads.ask(Reads.chargers, order: .chargers)
                await world.comeToFront()
                await world.advance(by: .seconds(11))
            }
            let received = await world.box.received
            #expect(received.map(\.message.type) == ["hello", "hello", "hello", "api.req"])
            #expect(received.map { $0.atMs - SessionWorld.originMs } == [0, 5_000, 10_000, 10_016])
        }
    }

    @Test func aHelloOKThatDidNotTakeTheSubscriptionGetsOneSub() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.helloSubscribed = false } }) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(30))
            let received = await world.box.received
            #expect(received.map(\.message.type) == ["hello", "sub"])
            #expect(received.last?.message == .sub(Sub(bucket: 512, hz: 1)))
            #expect(await world.recorder.streamChanges == [.streamReturned(connection: 1)])
        }
    }

    /// A box refuses in silence (protocol.md §8.1), but one silence may be a busy box: only the second in a row, on a
    /// quiet link with the box in its room, reads as "the box no longer knows this phone".
    @Test func aSilentBoxFailsTheHandshakeAfterThreeSecondsOnAReturnAndTwelveAfterThatAndOnlyThenReadsAsARefusal()
        async throws
    {
        try await SessionWorld.run(
            random: ScriptedRandom([0]),
            setUp: { await $0.configure { $0.answersHandshakes = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(20))
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.atMs) == [3_000, 15_000])
            #expect(closes.map(\.reason.code) == [.handshakeUnanswered, .refused])
            #expect(closes.last?.reason.message.contains("no longer knows this phone") == true)
        }
    }
}
