import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// The relay's join allowance (protocol.md §8.3): 30 joins per address per 60 s window, a join over it closed with
/// 4429 `slow down`, refused joins within the window costing nothing more, and the window turning at a time the
/// phone cannot see. The phone says so by name and is live within 10 s of the window turning.
@Suite struct SlowDownTests {
    /// Today the backoff grew past the window: live 9–14 s after it turned, 66–70 s when nothing was live before.
    @Test(arguments: [(7, 5_000), (11, 12_345), (23, 59_999), (42, 61_000), (5, 180_500)])
    func aPhoneTheRelayAsksToSlowDownIsLiveWithinTenSecondsOfTheWindowTurning(
        seed: UInt64,
        turnsAtMs: Int64
    )
        async throws
    {
        try await SessionWorld.run(
            random: SeededRandomSource(seed: seed),
            setUp: { await $0.configure { $0.allowanceSpent = true } }
        ) { world in
            await world.comeToFront()
            await world.advance(by: .milliseconds(turnsAtMs))
            let refused = world.dialer.dialCount
            await world.box.configure { $0.allowanceSpent = false }
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.allSatisfy { $0.reason.code == .relaySlowDown })
            #expect(closes.first?.reason.message.hasPrefix("the relay asked to slow down") == true)
            #expect(refused <= turnsAtMs / 2_500 + 1, "joins a few seconds apart, not a flood")
            await world.advance(by: .seconds(10))
            let live = try #require(
                await world.recorder.stamped.first { stamped in
                    if case .connection(.streaming) = stamped.event { true } else { false }
                }
            )
            #expect(live.atMs - SessionWorld.originMs - turnsAtMs <= 10_000)
        }
    }

    /// Only "slow down" says the join costs nothing: another busy close (a relay at its ceiling) takes the backoff.
    @Test func anotherBusyCloseTakesTheBackoffNotTheSlowDownsWait() async throws {
        try await SessionWorld.run(random: ScriptedRandom([0])) { world in
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            await world.box.close(code: 4429, reason: "full")
            await world.advance(by: .seconds(1))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs) == [0, 1_000])
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.message) == ["the carrier closed (4429 full)"])
        }
    }

    @Test func aSlowDownWaitsBetweenHalfAndAllOfItsRetryWhateverTheAttemptsSoFar() async throws {
        try await SessionWorld.run(
            random: ScriptedRandom([0.999_999]),
            setUp: { await $0.configure { $0.allowanceSpent = true } }
        ) { world in
            world.dialer.failNextDials(5)
            await world.comeToFront()
            await world.advance(by: .seconds(60))
            let dials = await world.recorder.dialTimes(since: SessionWorld.originMs)
            let gaps = zip(dials.dropFirst(), dials).map { $0 - $1 }
            #expect(gaps.prefix(5) == [499, 999, 1_999, 3_999, 7_999], "failed dials back off")
            #expect(gaps.count > 8)
            #expect(gaps.dropFirst(5).allSatisfy { (2_500...5_000).contains($0) }, "\(gaps)")
        }
    }
}
