import ClockSeam
import Fixtures
import Noise
import Session
import SessionInterface
import SessionTestHarness
import SessionTestSupport
import Testing

/// A return in the relay's hour's turn over real sockets on 127.0.0.1, through `RelayDialer`: the phone's clock reads
/// a few seconds before the relay moves its box into this hour's room, and the relay says `ready` only when the box
/// joins, 4 s after the phone. The watchdog's 2.5 s pass in between.
@Suite struct LoopbackHourTurnTests {
    /// A phone clock that reads `shiftMs` off the real one.
    private struct ShiftedWallClock: WallClock {
        let shiftMs: Int64
        var nowMs: Int64 { SystemWallClock().nowMs + shiftMs }
    }

    @Test func aReturnInTheHoursTurnJoinsOnceAndGoesLiveWhenTheBoxComes() async throws {
        let vector = try RotationVectors.load().vectors[1]
        let arrival = RelayRendezvous.boxArrival(secret: try vector.secret(), epoch: vector.epoch)
        let phoneClock = ShiftedWallClock(shiftMs: arrival.movesAtMs - 3_500 - SystemWallClock().nowMs)
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
            let sinceTheBox = boxJoins.duration(to: clock.now)
            #expect(relay.joins == 1)
            let states = await recorder.connectionStates
            #expect(states.first == .dialing(attempt: 1))
            #expect(states.dropFirst().first == .awaitingBox(arrival))
            #expect(!states.contains { if case .closed = $0 { true } else { false } })
            // The handshake starts on `ready`: live within the round trips of the handshake and hello, well under
            // the shortest of the session's timers (2.5 s) after the box came.
            #expect(sinceTheBox < .seconds(1), "live \(sinceTheBox) after the box joined")
        }
    }
}
