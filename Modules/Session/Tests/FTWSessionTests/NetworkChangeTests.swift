import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// A network change (the platform's path monitor calls `networkChanged()`), on the manual clock: a dial or a backoff
/// in progress gives way to a dial at once on the new path; a live stream is checked, not torn down.
@Suite struct NetworkChangeTests {
    /// A path backoff of about 30 s: base 30 s, jitter 0.99.
    private static let longBackoff = {
        var configuration = SessionConfiguration(build: "test")
        configuration.timing.backoffBase = .seconds(30)
        return configuration
    }()

    @Test func aNetworkChangeDuringABackoffDialsAtOnce() async throws {
        try await SessionWorld.run(configuration: Self.longBackoff, random: ScriptedRandom([0.99])) { world in
            world.dialer.failNextDials(1, with: SessionError(.relayUnreachable, "no relay"))
            await world.comeToFront()
            await world.advance(by: .seconds(5))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0], "backing off until 29.7 s")
            await world.session.networkChanged()
            await world.advance(by: .milliseconds(1))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 5_000])
            await world.advance(by: .seconds(60))
            #expect(world.dialer.dialCount == 2, "the dropped backoff dials no more")
            #expect(await world.session.hello() != nil)
        }
    }

    @Test func aNetworkChangeDuringADialDropsItAndDialsAgainAtOnce() async throws {
        try await SessionWorld.run { world in
            world.dialer.hold(honouringCancellation: true)
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            await world.session.networkChanged()
            world.dialer.release()
            await world.advance(by: .seconds(10))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 1_000])
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.atMs) == [1_000])
            #expect(closes.first?.reason.message == "the network changed: dialling again on the new path")
            #expect(await world.session.hello() != nil)
        }
    }

    @Test func aLiveStreamThatHearsAFrameIsKept() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(5))
            await world.session.networkChanged()
            await world.advance(by: .seconds(1))
            await world.box.push(.tick(Tick(seq: 1, uptimeMs: 9_000)))
            await world.advance(by: .seconds(30))
            #expect(world.dialer.dialCount == 1)
            #expect(await world.recorder.closes(since: SessionWorld.originMs).isEmpty)
        }
    }

    @Test func aLiveStreamThatHearsNothingWithinTheWatchdogIsDialledAgain() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(5))
            await world.session.networkChanged()
            await world.advance(by: .milliseconds(2_499))
            #expect(world.dialer.dialCount == 1)
            await world.advance(by: .milliseconds(1))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 7_500])
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.atMs) == [7_500])
            #expect(
                closes.first?.reason.message
                    == "nothing arrived within 2.5 seconds of the network change: dialling again"
            )
        }
    }

    @Test func inTheBackgroundANetworkChangeDialsNothing() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(5))
            await world.session.setPhase(.background)
            await world.session.networkChanged()
            await world.advance(by: .seconds(10))
            #expect(world.dialer.dialCount == 1)
        }
    }
}
