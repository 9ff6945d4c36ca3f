import FTWBus
import FTWClockSeamTesting
import FTWFixtures
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// A return in the relay's hour's turn (protocol.md §8.3), on the manual clock: the relay has not yet moved the box
/// into this hour's room, the session knows when it will from the rendezvous secret, waits in the room without
/// redialling, says when the box comes, and goes live the moment it does. The box's relay is scripted to say
/// `ready` only when the box joins.
@Suite struct HourTurnTests {
    /// The second case of rotation-vectors.json: the relay moves this box 121 357 ms after the hour.
    private static let vector = (
        secret: Vectors.bytes(hex: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff") ?? [],
        hourStartMs: Int64(1_777_780_800_000),
        movedAfterHourMs: Int64(121_357)
    )
    private static let arrival = BoxArrival(
        movesAtMs: vector.hourStartMs + vector.movedAfterHourMs,
        dueByMs: vector.hourStartMs + vector.movedAfterHourMs + 15_000 + 5_000
    )
    /// 20 s after the hour, as the return at 10:00:20.
    private static let returnMs = vector.hourStartMs + 20_000

    /// The box joins 3 s after the offset (a beat on it, then its rejoin), or as late as it may: the relay's beat 14.999 s
    /// after the offset and the box's whole 5 s. Either way one join, no close, live the moment it comes.
    @Test(arguments: [Int64(3_000), Int64(14_999 + 5_000)])
    func aReturnInTheHoursTurnJoinsOnceAndGoesLiveTheMomentTheBoxComes(afterOffsetMs: Int64) async throws {
        let boxJoinsAtMs = Self.arrival.movesAtMs + afterOffsetMs
        try await SessionWorld.run(
            originMs: Self.returnMs,
            rendezvousSecret: Self.vector.secret,
            setUp: { await $0.configure { $0.boxJoinsAtMs = boxJoinsAtMs } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .milliseconds(boxJoinsAtMs - Self.returnMs - 1))
            #expect(world.dialer.dialCount == 1)
            #expect(await world.recorder.connectionStates == [.dialing(attempt: 1), .awaitingBox(Self.arrival)])
            #expect(await world.box.handshakePayloads.isEmpty)

            await world.advance(by: .milliseconds(1))
            let stamped = await world.recorder.stamped
            let live = stamped.first { if case .streamReturned = $0.event { true } else { false } }
            let handshake = stamped.first { $0.event == .connection(.handshaking) }
            #expect(handshake?.atMs == boxJoinsAtMs)
            #expect(live?.atMs == boxJoinsAtMs)
            #expect(world.dialer.dialCount == 1)
            #expect(await world.recorder.closes(since: Self.returnMs).isEmpty)
        }
    }

    @Test func aBoxLaterThanDueIsWaitedForFromItsArrivalAsInAnyEmptyRoom() async throws {
        try await SessionWorld.run(
            originMs: Self.returnMs,
            rendezvousSecret: Self.vector.secret,
            setUp: { await $0.configure { $0.saysReady = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .milliseconds(Self.arrival.dueByMs - Self.returnMs + 60_000))
            let closes = await world.recorder.closes(since: Self.arrival.dueByMs)
            #expect(closes.map(\.reason.code) == [.carrierLost, .boxOffline])
            #expect(closes.map(\.atMs) == [2_500, 14_500])
            #expect(world.dialer.dialCount == 2)
        }
    }

    @Test func aDialThatDoesNotOpenIsRedialledAtTwoAndAHalfSecondsEvenInTheTurn() async throws {
        try await SessionWorld.run(originMs: Self.returnMs, rendezvousSecret: Self.vector.secret) { world in
            world.dialer.hold(honouringCancellation: true)
            await world.comeToFront()
            await world.advance(by: .milliseconds(2_500))
            #expect(world.dialer.dialCount == 2)
        }
    }

    /// A box that came at the hour's turn and leaves the handshake unanswered: its own way into the room (the relay's
    /// move, its rejoin wait) is no slowness of the link, so the silence counts. A box already there before its move
    /// was due was waited for by the link alone, as always: `ready` 2 s after the dial is a link too slow for the
    /// return's 3 s deadline to judge.
    @Test(arguments: [
        (arrival.movesAtMs + 3_000, SessionError.Code.handshakeUnanswered),
        (returnMs + 2_000, SessionError.Code.slowLink),
    ])
    func aSilenceAfterTheBoxCameIsJudgedOnTheLinksOwnDelay(boxJoinsAtMs: Int64, verdict: SessionError.Code) async throws
    {
        try await SessionWorld.run(
            originMs: Self.returnMs,
            rendezvousSecret: Self.vector.secret,
            setUp: {
                await $0.configure {
                    $0.boxJoinsAtMs = boxJoinsAtMs; $0.answersHandshakes = false
                }
            }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .milliseconds(boxJoinsAtMs - Self.returnMs + 3_000))
            let closes = await world.recorder.closes(since: boxJoinsAtMs)
            #expect(closes.map(\.atMs) == [3_000])
            #expect(closes.map(\.reason.code) == [verdict])
        }
    }

    /// Before the hour (its own turn long past), at the moment the box is due, and later in the hour: the session
    /// redials a silent return at 2.5 s and calls the room empty 12 s after that, as it always did.
    @Test(arguments: [vector.hourStartMs - 20_000, arrival.dueByMs, vector.hourStartMs + 1_800_000])
    func aReturnOutsideTheTurnIsAsBefore(originMs: Int64) async throws {
        try await SessionWorld.run(
            originMs: originMs,
            rendezvousSecret: Self.vector.secret,
            setUp: { await $0.configure { $0.saysReady = false } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(60))
            let closes = await world.recorder.closes(since: originMs)
            #expect(closes.map(\.reason.code) == [.carrierLost, .boxOffline])
            #expect(closes.map(\.atMs) == [2_500, 14_500])
            #expect(world.dialer.dialCount == 2)
            #expect(
                !(await world.recorder.connectionStates.contains { if case .awaitingBox = $0 { true } else { false } })
            )
        }
    }
}
