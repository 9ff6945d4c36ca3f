import FTWBoxProtocol
import FTWClockSeam
import FTWCrypto
import FTWDemoBox
import FTWNoise
import FTWSessionInterface
import Testing

/// The relay of protocol.md §8.3 as the in-process room plays it on the simulated clock: the join allowance, the
/// rotation, a skewed clock, a restart. `DemoRelayServer` judges its WebSocket joins with the same model.
@Suite struct RelayModelTests {
    private static var wallEpoch: Int64 { Rendezvous.epoch(nowMs: BoxWorld.origin) }

    /// What a phone joining at `epoch` hears first.
    private static func join(
        _ world: BoxWorld,
        epoch: Int64? = nil,
        closes: CloseLog = CloseLog()
    ) async throws
        -> [CarrierEvent]
    {
        let phone = try await world.relayPhone(epoch: epoch, closes: closes)
        return await phone.events
    }

    @Test func aHouseholdHasThirtyJoinsAMinuteAndRefusedJoinsCostNothingMore() async throws {
        try await BoxWorld.run { world in
            for _ in 0..<30 {
                let phone = try await world.relayPhone()
                #expect(await phone.events == [.control("ready")])
                await phone.carrier.close()
            }
            let closes = CloseLog()
            for _ in 0..<10 {
                let refused = try await world.relayPhone(closes: closes)
                #expect(await refused.events == [.closed(code: 4429, reason: "slow down")])
            }
            #expect(closes.all.count == 10, "each refusal is told to the rendezvous, as a close frame is")
            // The window turns a minute after the relay started, however many joins it refused meanwhile.
            await world.advance(by: .seconds(60))
            let heard = try await Self.join(world)
            #expect(heard == [.control("ready")])
        }
    }

    @Test func aSpentAllowanceIsSlowDownUntilTheWindowTurns() async throws {
        try await BoxWorld.run { world in
            await world.advance(by: .seconds(30))
            await world.box.spendJoinAllowance()
            let heard = try await Self.join(world)
            #expect(heard == [.closed(code: 4429, reason: "slow down")])
            await world.advance(by: .seconds(29))
            let heard2 = try await Self.join(world)
            #expect(heard2 == [.closed(code: 4429, reason: "slow down")])
            await world.advance(by: .seconds(1))
            let heard3 = try await Self.join(world)
            #expect(heard3 == [.control("ready")])
        }
    }

    @Test func aRotationClosesEveryStream4410WithTheNextEpochAndOnlyThatOneIsOpen() async throws {
        try await BoxWorld.run { world in
            let closes = CloseLog()
            let pathed = try await world.relayPhone(closes: closes)
            let plain = try await world.phone()
            await world.box.rotateRelayEpoch()
            await world.settle()
            let rotated = CarrierEvent.closed(code: 4410, reason: String(Self.wallEpoch + 1))
            #expect(await pathed.events.last == rotated)
            #expect(await plain.events.last == rotated)
            #expect(closes.all == [rotated], "the rotation is told to the rendezvous")
            let stale = CloseLog()
            _ = try await world.relayPhone(closes: stale)
            #expect(stale.all == [.closed(code: 4409, reason: String(Self.wallEpoch + 1))])
            let heard = try await Self.join(world, epoch: Self.wallEpoch + 1)
            #expect(heard == [.control("ready")])
            // The wall clock's next hour catches the relay up: a join under it is the right epoch again.
            await world.advance(by: .seconds(3_600))
            let heard2 = try await Self.join(world, epoch: Self.wallEpoch + 1)
            #expect(heard2 == [.control("ready")])
        }
    }

    @Test func aRelayClockAnHourAheadRefusesTheWallClocksEpoch4409AndLeavesInProcessStreams() async throws {
        try await BoxWorld.run { world in
            let streaming = try await world.streamingPhone()
            await world.box.skewRelayClock(hours: 1)
            await world.settle()
            #expect(await streaming.events.contains { if case .closed = $0 { true } else { false } } == false)
            let closes = CloseLog()
            let skewed = try await Self.join(world, closes: closes)
            #expect(skewed == [.closed(code: 4409, reason: String(Self.wallEpoch + 1))])
            #expect(closes.all.count == 1)
            await world.box.skewRelayClock(hours: 0)
            let heard = try await Self.join(world)
            #expect(heard == [.control("ready")])
        }
    }

    @Test func aRestartClosesEverySocket1001AndTheBoxReturnsAfterItsBackoff() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.box.restartRelay()
            await world.settle()
            #expect(await phone.events.last == .closed(code: 1001, reason: ""))
            let early = try await world.relayPhone()
            #expect(await early.events.isEmpty, "the box is not back in the room yet")
            await world.advance(by: .milliseconds(250))
            #expect(await early.events == [.control("ready")])
            try await early.startHandshake(payload: [])
            await world.settle()
            #expect(await early.isConnected == false, "the restart closed the sessions: the key is not enrolled")
        }
    }

    @Test func aBoxUpdateRestartsItAndItsNextHelloNamesTheNewBuild() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let key = phone.staticKey
            await world.box.update(build: "ftw-demobox-2")
            await world.settle()
            #expect(await phone.events.suffix(2) == [.control("gone"), .control("ready")])
            #expect(await world.box.build == "ftw-demobox-2")
            let back = try await world.phone(staticKey: key)
            try await back.startHandshake(payload: [])
            await world.settle()
            try await back.send(Samples.hello())
            await world.settle()
            guard case .helloOK(let hello)? = await back.received.first?.message else {
                Issue.record("no hello_ok after the update")
                return
            }
            #expect(hello.box.build == "ftw-demobox-2")
            #expect(hello.clock.uptimeMs < 5_000, "an update restarts the box")
        }
    }

    /// The float quotient `elapsed / 1 s` once rounded an exact beat down at 40 minutes, and the box pulsed again at
    /// the same instant for ever; a phone streaming for 40 minutes hears one frame a second.
    @Test func aStreamingPhoneHearsOneFrameASecondForAnHour() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.advance(by: .seconds(3_600))
            #expect(await Samples.stream(phone.received).count == 3_600)
        }
    }

    /// Nobody in the room: the box pulses once a minute. A phone that joins after an idle hour is answered with a
    /// house stepped to the moment it joined, so its snap's drivers read live.
    @Test func aPhoneAfterAnIdleHourHearsAFreshHouse() async throws {
        try await BoxWorld.run { world in
            await world.advance(by: .seconds(3_601))
            let (phone, heard) = try await world.helloedPhone()
            let snap = try #require(heard)
            let freshest = snap.uptimeMs - 1_000
            #expect(snap.sources.values.allSatisfy { $0.state == .live && $0.lastOkMs > freshest })
            await world.advance(by: .seconds(10))
            #expect(await Samples.stream(phone.received).count == 10)
        }
    }

    /// The same join, by a box whose old room is moved on the beat at 11:01:00 (its handle's offset falls 45–60 s
    /// into the spread): the phone that joins at 11:01:01 waits for the box's rejoin at 11:01:02.5, then greets.
    /// A random secret put about one run in twenty here, and a helper that did not wait failed them `.notConnected`.
    @Test func aPhoneThatJoinsWhileTheBoxRejoinsAfterTheTurnIsGreetedOnceItIsBack() async throws {
        let secret = try #require(Self.secretMovedAt(45_001...60_000))
        var configuration = DemoBoxConfiguration()
        configuration.identity = .generate(rendezvousSecret: secret)
        try await BoxWorld.run(configuration: configuration) { world in
            await world.advance(by: .seconds(3_601))
            let (_, heard) = try await world.helloedPhone()
            #expect(heard != nil, "greeted once the box was back")
            #expect(world.nowMs >= BoxWorld.origin + 3_600_000 + 2_500, "not before the box's rejoin")
        }
    }

    /// The first of a fixed series of secrets whose old room, at the origin's hour, is moved `offsets` ms into the
    /// production spread.
    private static func secretMovedAt(_ offsets: ClosedRange<Int64>) -> [UInt8]? {
        let secrets = (1...1_000).lazy.map { SHA256.hash(Array("turn \($0)".utf8)) }
        return secrets.first { secret in
            offsets.contains(
                RelaySchedule.production.rotationOffsetMs(handle: Rendezvous.handle(secret: secret, epoch: wallEpoch))
            )
        }
    }
}
