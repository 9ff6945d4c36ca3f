import FTWClockSeam
import FTWFixtures
import FTWNoise
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// A return in the relay's hour's turn over real sockets on 127.0.0.1, through `RelayDialer`: the relay says `ready`
/// only when the box joins, 4 s after the phone, so the watchdog's 2.5 s pass in between. The phone's clock reads a
/// minute before the relay's move (a phone clock a minute slow, or a box that came early), so every deadline the
/// session counts from the box's arrival lies a minute on, past the test's 20 s: the stream can only have come from
/// `ready`. How soon after `ready` is held exactly on the manual clock (`HourTurnTests`); here the wall clock of a
/// loaded machine is no measure of it.
@Suite struct LoopbackHourTurnTests {
    /// A phone clock that reads `shiftMs` off the real one.
    private struct ShiftedWallClock: WallClock {
        let shiftMs: Int64
        var nowMs: Int64 { SystemWallClock().nowMs + shiftMs }
    }

    @Test func aReturnInTheHoursTurnJoinsOnceAndGoesLiveWhenTheBoxComes() async throws {
        let vector = try RotationVectors.load().vectors[1]
        let arrival = try #require(RelayRendezvous.boxArrival(secret: try vector.secret(), epoch: vector.epoch))
        let phoneClock = ShiftedWallClock(shiftMs: arrival.movesAtMs - 60_000 - SystemWallClock().nowMs)
        let clock = ContinuousClock()
        let boxJoins = clock.now.advanced(by: .seconds(4))
        let relay = try HostileRelay(
            staticPrivateKey: ScriptedBox.staticPrivateKey,
            boxArrives: { try? await clock.sleep(until: boxJoins) },
            clock: clock,
            replies: { _ in [] }
        )
        try await LoopbackWorld.run(
            relay,
            configuration: SessionConfiguration(build: "loopback"),
            wallClock: phoneClock,
            rendezvousSecret: try vector.secret()
        ) { _, recorder in
            try await TimeLimit.within(.seconds(20), on: clock, "the stream") {
                await recorder.wait { $0.contains { if case .connection(.streaming) = $0 { true } else { false } } }
            }
            #expect(clock.now >= boxJoins)
            #expect(relay.joins == 1)
            let states = await recorder.connectionStates
            #expect(states.first == .dialing(attempt: 1))
            #expect(states.dropFirst().first == .awaitingBox(arrival))
            #expect(!states.contains { if case .closed = $0 { true } else { false } })
        }
    }
}
