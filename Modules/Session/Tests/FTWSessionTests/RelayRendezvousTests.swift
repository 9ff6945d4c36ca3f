import FTWClockSeamTesting
import FTWFixtures
import FTWNoise
import FTWSession
import FTWSessionInterface
import Testing

/// The rendezvous apart from any socket, as a carrier on another transport uses it: the path it would dial, and the
/// corrections it takes from the relay's closes.
@Suite struct RelayRendezvousTests {
    private static let secret = [UInt8](repeating: 0x3C, count: 32)
    /// 2025-12-02 10:00 UTC.
    private static let originMs: Int64 = 1_764_669_600_000

    @Test func aCarrierOfAnotherTransportDialsThePathAndReportsCloses() {
        let clock = ManualClock(originMs: Self.originMs)
        let rendezvous = RelayRendezvous(secret: Self.secret, wallClock: clock)
        let epoch = Rendezvous.epoch(nowMs: Self.originMs)
        #expect(rendezvous.path == "/r/\(epoch)/\(Rendezvous.handle(secret: Self.secret, epoch: epoch))/app")

        rendezvous.noteClose(code: 4409, reason: "epoch \(epoch - 1)")
        #expect(rendezvous.epoch == epoch - 1)
        #expect(rendezvous.path == "/r/\(epoch - 1)/\(Rendezvous.handle(secret: Self.secret, epoch: epoch - 1))/app")

        rendezvous.noteClose(code: 4410, reason: "\(epoch + 7)")
        rendezvous.noteClose(code: 1000, reason: "\(epoch + 1)")
        #expect(rendezvous.epoch == epoch - 1)
    }

    /// The relay moves the old room at the first beat of its 15 s heartbeat at or after the offset, and the box
    /// rejoins within 5 s: the box is due between the offset and 20 s after it.
    @Test func theBoxsArrivalIsTheRelaysMoveOfTheOldRoomOnItsBeatThenTheBoxsRejoin() throws {
        let file = try RotationVectors.load()
        #expect(file.spreadMs == RelaySchedule.production.rotationSpreadMs)
        #expect(file.vectors.count == 5)
        for vector in file.vectors {
            let secret = try vector.secret()
            #expect(vector.hourStartMs == RelaySchedule.production.startMs(ofEpoch: vector.epoch))
            #expect(Rendezvous.handle(secret: secret, epoch: vector.epoch) == vector.handle)
            #expect(Rendezvous.handle(secret: secret, epoch: vector.epoch - 1) == vector.previousHandle)
            #expect(
                RelaySchedule.production.rotationOffsetMs(handle: vector.previousHandle) == vector.boxMovedAtMsAfterHour
            )
            let movesAtMs = vector.hourStartMs + vector.boxMovedAtMsAfterHour
            #expect(
                RelayRendezvous.boxArrival(secret: secret, epoch: vector.epoch)
                    == BoxArrival(movesAtMs: movesAtMs, dueByMs: movesAtMs + 15_000 + 5_000),
                "epoch \(vector.epoch)"
            )
        }
    }

    @Test func theRotationVectorsReproduceTheIdentityVectorsHandles() throws {
        let identity = try #require(try Vectors.json("identity-vectors.json")["rendezvous"] as? [String: Any])
        let identitySecret = try #require(identity["secret"] as? String)
        let identityHandles = try #require(identity["handles"] as? [String: String])
        var compared = 0
        for vector in try RotationVectors.load().vectors where vector.rendezvousSecretHex == identitySecret {
            for (epoch, handle) in [(vector.epoch, vector.handle), (vector.epoch - 1, vector.previousHandle)] {
                guard let expected = identityHandles[String(epoch)] else { continue }
                #expect(handle == expected, "epoch \(epoch)")
                compared += 1
            }
        }
        #expect(compared == 2)
    }

    /// A handle that is not four hex digits first (none of ours) is moved at once, as the relay's `parseInt` makes
    /// it; the last place in the spread is 5 ms before its end.
    @Test func theOffsetReadsTheHandlesFirstFourHexDigits() {
        let production = RelaySchedule.production
        #expect(production.rotationOffsetMs(handle: "0000" + String(repeating: "f", count: 28)) == 0)
        #expect(production.rotationOffsetMs(handle: "ffff" + String(repeating: "0", count: 28)) == 299_995)
        #expect(production.rotationOffsetMs(handle: "zz") == 0)
        #expect(production.rotationOffsetMs(handle: "") == 0)
    }

    /// The dialer knows the box's arrival from the hour's start until the box is due, and not before or after.
    @Test func aDialerKnowsTheBoxsArrivalUntilTheBoxIsDue() throws {
        for vector in try RotationVectors.load().vectors {
            let secret = try vector.secret()
            let arrival = try #require(RelayRendezvous.boxArrival(secret: secret, epoch: vector.epoch))
            func known(atMs nowMs: Int64) -> BoxArrival? {
                let clock = ManualClock(originMs: nowMs)
                return RelayDialer(host: "127.0.0.1", port: 1, rendezvousSecret: secret, clock: clock, wallClock: clock)
                    .boxArrival
            }
            #expect(known(atMs: vector.hourStartMs) == arrival)
            #expect(known(atMs: arrival.movesAtMs) == arrival)
            #expect(known(atMs: arrival.dueByMs - 1) == arrival)
            #expect(known(atMs: arrival.dueByMs) == nil)
            #expect(known(atMs: vector.hourStartMs - 1) == nil)
        }
    }

    /// A relay's correction to an hour our clock has not reached cannot be placed on our clock: no arrival. One back
    /// to the hour before names that hour's turn, long past.
    @Test func aCorrectedEpochPlacesNoArrivalOurClockCannotSee() {
        let epoch = Rendezvous.epoch(nowMs: Self.originMs)
        let behind = ManualClock(originMs: Self.originMs - 2_000)
        let slow = RelayRendezvous(secret: Self.secret, wallClock: behind)
        slow.noteClose(code: 4409, reason: "\(epoch)")
        #expect(slow.epoch == epoch)
        #expect(slow.boxArrival == nil)

        let ahead = ManualClock(originMs: Self.originMs + 2_000)
        let fast = RelayRendezvous(secret: Self.secret, wallClock: ahead)
        #expect(fast.boxArrival != nil)
        fast.noteClose(code: 4409, reason: "\(epoch - 1)")
        #expect(fast.boxArrival == nil)
    }

    /// A demo relay's short schedule, handed to the rendezvous: epochs of a minute whose turn is spread over 20 s name
    /// the minute's room, and the box's arrival in it is the previous minute's handle's place in those 20 s.
    @Test func aShortScheduleNamesItsOwnEpochsAndPlacesTheArrivalInItsSpread() throws {
        let schedule = try #require(RelaySchedule(epochMs: 60_000, rotationSpreadMs: 20_000))
        let epoch = Self.originMs / 60_000
        let clock = ManualClock(originMs: Self.originMs + 1_000)
        let rendezvous = RelayRendezvous(secret: Self.secret, wallClock: clock, schedule: schedule)
        #expect(rendezvous.epoch == epoch)
        #expect(rendezvous.path == "/r/\(epoch)/\(Rendezvous.handle(secret: Self.secret, epoch: epoch))/app")
        let previous = Rendezvous.handle(secret: Self.secret, epoch: epoch - 1)
        let movesAtMs = Self.originMs + Int64(UInt16(previous.prefix(4), radix: 16) ?? 0) * 20_000 / 65_536
        let arrival = BoxArrival(movesAtMs: movesAtMs, dueByMs: movesAtMs + 20_000)
        #expect(RelayRendezvous.boxArrival(secret: Self.secret, epoch: epoch, schedule: schedule) == arrival)
        #expect(rendezvous.boxArrival == (arrival.dueByMs > clock.nowMs ? arrival : nil))
        // A 4409 naming the next minute is within one epoch of ours: adopted, as an hour would be.
        rendezvous.noteClose(code: 4409, reason: "\(epoch + 1)")
        #expect(rendezvous.epoch == epoch + 1)
    }

    /// A schedule whose spread would reach into the next epoch, or an epoch under a second, is refused.
    @Test func aScheduleWhoseSpreadDoesNotEndInsideItsEpochIsRefused() {
        #expect(RelaySchedule(epochMs: 60_000, rotationSpreadMs: 60_000) == nil)
        #expect(RelaySchedule(epochMs: 60_000, rotationSpreadMs: -1) == nil)
        #expect(RelaySchedule(epochMs: 999, rotationSpreadMs: 0) == nil)
        #expect(RelaySchedule(epochMs: 3_600_000, rotationSpreadMs: 300_000) == .production)
    }
}
