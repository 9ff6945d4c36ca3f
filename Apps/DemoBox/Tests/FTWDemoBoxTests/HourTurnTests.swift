import FTWClockSeam
import FTWCrypto
import FTWDemoBox
import FTWFixtures
import FTWNoise
import FTWSessionInterface
import Testing

/// The hour's turn as the demo box's relay plays it (protocol.md §8.3): at the top of the hour only the new epoch is
/// joined, the room still on the old handle is moved (4410) at the first beat of the relay's heartbeat at or after
/// that handle's place in the spread, and the box joins the new room 2.5 s later, where a phone that came early hears
/// `ready`. Checked against rotation-vectors.json's offsets, which come from the relay's own formula, on a relay with
/// no beat, and on the production beat at three phases.
@Suite struct HourTurnTests {
    /// A box whose rendezvous secret is the vector's, in a world that starts 10 s before the vector's hour.
    private static func run(
        _ vector: RotationVectors.Case,
        schedule: RelaySchedule = .production,
        beat: RelayBeat = .none,
        startMs: Int64? = nil,
        _ body: @escaping @Sendable (BoxWorld) async throws -> Void
    ) async throws {
        var configuration = DemoBoxConfiguration()
        configuration.identity = try DemoBoxIdentity(
            staticPrivateKey: SHA256.hash(Array("hour turn".utf8)),
            rendezvousSecret: try vector.secret()
        )
        configuration.relaySchedule = schedule
        configuration.relayBeat = beat
        try await BoxWorld.run(originMs: startMs ?? vector.hourStartMs - 10_000, configuration: configuration, body)
    }

    /// The vectors of this century: a box's simulated house begins two days before its clock.
    private static func vectors() throws -> [RotationVectors.Case] {
        try RotationVectors.load().vectors.filter { $0.hourStartMs > 1_700_000_000_000 }
    }

    @Test(arguments: try vectors())
    func theOldRoomIsMovedAtItsHandlesOffsetAndTheBoxJoinsTheNewOneAfterItsWait(
        vector: RotationVectors.Case
    ) async throws {
        try await Self.run(vector) { world in
            let old = vector.epoch - 1
            let before = try await world.relayPhone(epoch: old)
            #expect(await before.events == [.control("ready")])
            await world.advance(by: .seconds(10))

            let late = CloseLog()
            _ = try await world.relayPhone(epoch: old, closes: late)
            #expect(late.all == [.closed(code: 4409, reason: String(vector.epoch))], "only the new hour is joined")
            let early = try await world.relayPhone(epoch: vector.epoch)
            #expect(await early.events.isEmpty, "the box is still in the old room")

            let moved = CarrierEvent.closed(code: 4410, reason: String(vector.epoch))
            await world.advance(by: .milliseconds(vector.boxMovedAtMsAfterHour - 1))
            #expect(await before.events == [.control("ready")], "the old room stays until its offset")
            await world.advance(by: .milliseconds(1))
            #expect(await before.events.last == moved)
            #expect(await early.events.isEmpty)

            await world.advance(by: .milliseconds(2_499))
            #expect(await early.events.isEmpty, "the box waits 2.5 s before it rejoins")
            await world.advance(by: .milliseconds(1))
            #expect(await early.events == [.control("ready")])
            let code = await world.box.mintPairingCode()
            try await early.startHandshake(payload: code)
            await world.settle()
            #expect(await early.isConnected, "the box is in the new room and answers")
        }
    }

    /// The production relay's heartbeat at three phases: the old room of rotation-vectors.json's second case (offset
    /// 121 357 ms) is moved on the first beat at or after its offset, up to 15 s late, never before it; the box joins
    /// 2.5 s after the move, and the phone that came early waits for it.
    @Test(arguments: [(Int64(0), Int64(135_000)), (7_000, 127_000), (14_000, 134_000)])
    func theOldRoomIsMovedOnTheFirstBeatAtOrAfterItsOffset(phaseMs: Int64, movedAfterHourMs: Int64) async throws {
        let vector = try RotationVectors.load().vectors[1]
        #expect(vector.boxMovedAtMsAfterHour == 121_357)
        let beat = try #require(RelayBeat(periodMs: 15_000, phaseMs: phaseMs))
        try await Self.run(vector, beat: beat) { world in
            let before = try await world.relayPhone(epoch: vector.epoch - 1)
            await world.advance(by: .seconds(10))
            let early = try await world.relayPhone(epoch: vector.epoch)
            await world.advance(by: .milliseconds(movedAfterHourMs - 1))
            #expect(await before.events == [.control("ready")], "the old room stays until the beat after its offset")
            await world.advance(by: .milliseconds(1))
            #expect(await before.events.last == .closed(code: 4410, reason: String(vector.epoch)))
            await world.advance(by: .milliseconds(2_499))
            #expect(await early.events.isEmpty)
            await world.advance(by: .milliseconds(1))
            #expect(await early.events == [.control("ready")])
        }
    }

    /// A phone in the new room before the box hears none of the box's output, and what it sends reaches no box: the
    /// rooms are apart until the box joins.
    @Test func aPhoneInTheNewRoomReachesNoBoxUntilItComes() async throws {
        let vector = try RotationVectors.load().vectors[1]
        try await Self.run(vector) { world in
            await world.advance(by: .seconds(10))
            let early = try await world.relayPhone(epoch: vector.epoch)
            try await early.startHandshake(payload: await world.box.mintPairingCode())
            await world.settle()
            #expect(await early.isConnected == false)
            #expect(await world.box.enrolledDevices.isEmpty, "message 1 reached no box")
        }
    }

    /// A stream joined without a path (a test of the box alone) is the box's own line: the hour's turn never moves it.
    @Test func aStreamWithoutAPathStreamsThroughTheTurn() async throws {
        let vector = try RotationVectors.load().vectors[3]
        try await Self.run(vector) { world in
            let phone = try await world.streamingPhone()
            await world.advance(by: .seconds(10) + .milliseconds(vector.boxMovedAtMsAfterHour) + .seconds(5))
            #expect(await phone.events.contains { if case .closed = $0 { true } else { false } } == false)
            #expect(await phone.isConnected)
        }
    }

    /// A demo relay shortened for a wall-clock test: epochs of a minute, the turn spread over 20 s. The room moves at
    /// the old handle's place in those 20 s.
    @Test func aShortScheduleTurnsEveryEpochWithinItsSpread() async throws {
        let vector = try RotationVectors.load().vectors[2]
        let schedule = try #require(RelaySchedule(epochMs: 60_000, rotationSpreadMs: 20_000))
        let secret = try vector.secret()
        let startMs = (vector.hourStartMs / 60_000 + 1) * 60_000
        let epoch = schedule.epoch(nowMs: startMs)
        let offsetMs = schedule.rotationOffsetMs(handle: Rendezvous.handle(secret: secret, epoch: epoch))
        #expect(offsetMs < 20_000)
        try await Self.run(vector, schedule: schedule, startMs: startMs) { world in
            let before = try await world.relayPhone(epoch: epoch)
            await world.advance(by: .seconds(60))
            let early = try await world.relayPhone(epoch: epoch + 1)
            await world.advance(by: .milliseconds(offsetMs))
            #expect(await before.events.last == .closed(code: 4410, reason: String(epoch + 1)))
            await world.advance(by: .milliseconds(2_500))
            #expect(await early.events == [.control("ready")])
        }
    }
}
