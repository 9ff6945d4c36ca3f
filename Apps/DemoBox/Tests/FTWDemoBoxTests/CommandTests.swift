import FTWBoxProtocol
import FTWDemoBox
import Testing

@Suite struct CommandTests {
    /// A streaming phone and the site as its snapshot showed it.
    private static func start(_ world: BoxWorld, role: String = "owner") async throws -> (TestPhone, Snap) {
        let phone = try await world.enrolledPhone(role: role)
        try await phone.send(Samples.hello())
        await world.settle()
        guard case .snap(let snap)? = await phone.received.last?.message else { throw TestPhoneError.notConnected }
        await phone.clear()
        return (phone, snap)
    }

    /// Sends a command as the Swift client does (lane 0, no id, valid `validForMs` past the box's uptime now) and
    /// lets the world settle.
    private static func issue(
        _ world: BoxWorld,
        _ phone: TestPhone,
        _ op: CommandOp,
        _ args: CBORMap,
        rev: UInt64,
        validForMs: Int64 = 60_000,
        guards: [Guard] = []
    ) async throws {
        let uptime = await world.box.uptimeMs
        try await phone.send(
            Samples.command(op, args, rev: rev, notValidAfterMs: uptime + validForMs, guards: guards)
        )
        await world.settle()
    }

    private static func results(_ received: [TestPhone.Received]) -> [CommandResult] {
        received.compactMap { frame in
            guard case .cmdResult(let result)? = frame.message else { return nil }
            return result
        }
    }

    private static func acks(_ received: [TestPhone.Received]) -> [CommandAck] {
        received.compactMap { frame in
            guard case .cmdAck(let ack)? = frame.message else { return nil }
            return ack
        }
    }

    @Test func anAppliedModeChangeIsAckedReadBackAndFollowedByTheNewPlan() async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            let uptime = await world.box.uptimeMs
            try await Self.issue(
                world,
                phone,
                .siteModeSet,
                ["mode": "charge"],
                rev: snap.controlRev,
                validForMs: 120_000
            )
            let received = await phone.received
            #expect(received.map(\.type) == ["cmd.ack", "cmd.result", "plan"])
            #expect(received.prefix(2).allSatisfy { $0.frame.lane == .control && $0.envelope.id == nil })
            let ack = try #require(Self.acks(received).first)
            #expect(ack.expiresAtMs == uptime + 900_000 && !ack.leaseId.isEmpty)
            let result = try #require(Self.results(received).first)
            #expect(result.state == .applied)
            #expect(result.observed?.value == Double(ModeKey.all.firstIndex(of: .charge) ?? -1))
            #expect(result.observed?.src == "core")
            #expect(received.last?.envelope.id == nil)
            await phone.clear()
            await world.advance(by: .seconds(1))
            let after = await phone.received
            #expect(after.map(\.type).first == "snap")
            guard case .snap(let resync)? = after.first?.message else { return }
            #expect(resync.controlRev == snap.controlRev + 1)
            #expect(resync.fields[1] == Int64(ModeKey.all.firstIndex(of: .charge) ?? -1))
        }
    }

    @Test func aStaleRevisionIsAConflict() async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            try await Self.issue(world, phone, .siteModeSet, ["mode": "idle"], rev: snap.controlRev + 5)
            let received = await phone.received
            #expect(received.map(\.type) == ["cmd.result"])
            let result = try #require(Self.results(received).first)
            #expect(result.state == .rejected && result.error?.code == .conflict)
            #expect(
                result.error?.args == [
                    "expected": .int(Int64(snap.controlRev + 5)), "actual": .int(Int64(snap.controlRev)),
                ]
            )
        }
    }

    @Test func aCommandPastItsDeadlineExpires() async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            let uptime = await world.box.uptimeMs
            try await phone.send(
                Samples.command(.siteModeSet, ["mode": "idle"], rev: snap.controlRev, notValidAfterMs: uptime)
            )
            await world.settle()
            let result = try #require(Self.results(await phone.received).first)
            #expect(result.state == .expired && result.error?.code == .commandExpired)
            #expect(result.error?.args == ["notValidAfterMs": .int(uptime), "uptimeMs": .int(uptime)])
        }
    }

    @Test func aRepeatedCommandIdReplaysTheAnswerWithoutActingAgain() async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            let uptime = await world.box.uptimeMs
            let command = Samples.command(
                .siteModeSet,
                ["mode": "idle"],
                rev: snap.controlRev,
                notValidAfterMs: uptime + 60_000,
                cmdId: "0192f2a0-7c1e-7000-8000-0123456789ab"
            )
            try await phone.send(command)
            await world.settle()
            let first = await phone.received
            await phone.clear()
            try await phone.send(command)
            await world.settle()
            let again = await phone.received
            #expect(again.map(\.type) == ["cmd.ack", "cmd.result"])
            #expect(Self.acks(again) == Self.acks(first) && Self.results(again) == Self.results(first))
            await world.advance(by: .seconds(1))
            guard case .snap(let resync)? = await phone.received.dropFirst(2).first?.message else {
                Issue.record("no resync snap")
                return
            }
            #expect(resync.controlRev == snap.controlRev + 1)
        }
    }

    @Test func aCommandWithoutACommandIdIsAnUnknownOpOnItsEnvelopeId() async throws {
        try await BoxWorld.run { world in
            let (phone, _) = try await Self.start(world)
            let body: CBOR = ["op": "site.mode.set", "args": ["mode": "idle"], "notValidAfterMs": 9_999_999_999]
            try await phone.send(envelope: Envelope(type: "cmd", id: 4, body: body), lane: .control)
            await world.settle()
            let error = Samples.error(await phone.answers(to: 4).first)
            #expect(error?.code == .unknownOp && error?.args == ["t": "cmd", "missing": "cmdId"])
        }
    }

    /// A command the box refuses, and the error args it refuses it with.
    struct Refused: Sendable, CustomTestStringConvertible {
        var op: CommandOp
        var args: CBORMap
        var expected: CBORMap

        var testDescription: String { "\(op) \(args.entries.map(\.key))" }
    }

    static let refusals: [Refused] = [
        Refused(op: .batteryHold, args: ["power_w": 1000], expected: ["op": "battery.hold"]),
        Refused(
            op: .siteModeSet,
            args: ["mode": "turbo"],
            expected: ["op": "site.mode.set", "arg": "mode", "value": "turbo"]
        ),
        Refused(
            op: .loadpointHold,
            args: ["id": "driveway", "power_w": 1000],
            expected: ["op": "loadpoint.hold", "arg": "id", "value": "driveway"]
        ),
        Refused(
            op: .loadpointHold,
            args: ["id": "garage", "power_w": -1],
            expected: ["op": "loadpoint.hold", "arg": "power_w", "value": -1]
        ),
        Refused(
            op: .loadpointBoost,
            args: ["id": "garage", "duration_s": 60, "expires_at_ms": 1],
            expected: ["op": "loadpoint.boost", "arg": "duration_s", "value": 60]
        ),
    ]

    @Test(arguments: refusals)
    func anOpOrArgumentTheBoxDoesNotKnowIsRejected(refused: Refused) async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            try await Self.issue(world, phone, refused.op, refused.args, rev: snap.controlRev)
            let received = await phone.received
            #expect(received.map(\.type) == ["cmd.result"])
            let result = try #require(Self.results(received).first)
            #expect(
                result.state == .rejected && result.error?.code == .unknownOp && result.error?.args == refused.expected
            )
        }
    }

    @Test func aViewerMayNotChangeTheMode() async throws {
        try await BoxWorld.run { world in
            _ = try await world.enrolledPhone()
            let (viewer, snap) = try await Self.start(world, role: "viewer")
            try await Self.issue(world, viewer, .siteModeSet, ["mode": "idle"], rev: snap.controlRev)
            let result = try #require(Self.results(await viewer.received).first)
            #expect(result.error?.code == .scopeDenied)
            #expect(result.error?.args == ["op": "site.mode.set", "needScope": "ftw.mode.write", "role": "viewer"])
        }
    }

    @Test func aGuardIsCheckedAgainstFreshValues() async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            let soc = try #require(snap.fields[5])
            let guards = [
                Guard(fid: 6, op: .greaterThan, value: 0), Guard(fid: 5, op: .lessThan, value: Double(soc - 50)),
            ]
            try await Self.issue(world, phone, .siteModeSet, ["mode": "idle"], rev: snap.controlRev, guards: guards)
            let result = try #require(Self.results(await phone.received).first)
            #expect(result.error?.code == .precondition)
            #expect(result.error?.args == ["fid": 5, "op": "lt", "value": .int(soc - 50), "guards": [5, 6]])
        }
    }

    @Test func aHoldAboveTheChargersPowerIsSupersededByWhatItHolds() async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            try await Self.issue(
                world,
                phone,
                .loadpointHold,
                ["id": "garage", "power_w": 20_000],
                rev: snap.controlRev
            )
            let result = try #require(Self.results(await phone.received).first)
            #expect(result.state == .superseded && result.observed?.value == 11_000)
            #expect(await phone.received.last?.type == "cmd.result")
        }
    }

    @Test func aHoldAndABoostDriveTheCar() async throws {
        try await BoxWorld.run { world in
            let (phone, snap) = try await Self.start(world)
            try await Self.issue(
                world,
                phone,
                .loadpointHold,
                ["id": "garage", "power_w": 7000, "hold_s": 600],
                rev: snap.controlRev
            )
            await world.advance(by: .seconds(5))
            let held = Self.results(await phone.received)
            #expect(held.map(\.state) == [.applied] && held.first?.observed?.value == 7000)
            let car = await phone.received.compactMap { frame -> Int64? in
                if case .delta(let delta)? = frame.message { return delta.fields[10] }
                if case .snap(let snap)? = frame.message { return snap.fields[10] }
                return nil
            }
            #expect(car.last == 7000)
            try await Self.issue(
                world,
                phone,
                .loadpointBoost,
                ["id": "garage", "duration_s": 1800],
                rev: snap.controlRev + 1
            )
            let boosted = Self.results(await phone.received).last
            #expect(boosted?.state == .applied && boosted?.observed?.value == 1)
            try await Self.issue(
                world,
                phone,
                .loadpointBoost,
                ["id": "garage", "cancel": true],
                rev: snap.controlRev + 2
            )
            #expect(Self.results(await phone.received).last?.observed?.value == 0)
        }
    }

    @Test func aLoadpointCommandIsRefusedWhileDispatchIsBlockedButTheModeIsNot() async throws {
        try await BoxWorld.run { world in
            let (phone, _) = try await Self.start(world)
            await world.box.setDeviceQuiet("sungrow", true)
            await world.advance(by: .seconds(61))
            try await Self.issue(world, phone, .loadpointHold, ["id": "garage", "power_w": 1000], rev: 1)
            try await Self.issue(world, phone, .siteModeSet, ["mode": "idle"], rev: 1)
            let results = Self.results(await phone.received)
            #expect(results.map(\.state) == [.rejected, .applied])
            #expect(results.first?.error?.args == ["dispatchBlockedBy": ["sungrow"]])
        }
    }
}
