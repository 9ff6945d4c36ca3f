import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// What goes over the carrier: fixed-size lane 0 frames, a handshake that ignores other phones' replies, input that
/// never kills the session, and the enrolment's pairing code used once.
@Suite struct WireTests {
    @Test func everyLaneZeroFrameOnTheWireIs512PlusTheNoiseOverhead() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.helloSubscribed = false } }) { world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                await reads.ask(Reads.chargers, order: .chargers)
                _ = await world.command(CommandRequest(op: "site.mode.set", args: ["mode": .text("self_consumption")]))
            }
            let received = await world.box.received
            let control = received.filter { $0.lane == .control }
            #expect(control.map(\.message.type) == ["hello", "sub", "cmd"])
            #expect(control.allSatisfy { $0.frameBytes == 512 && $0.wireBytes == 536 })
            #expect(received.filter { $0.lane == .bulk }.allSatisfy { $0.wireBytes == 1_048 })
        }
    }

    @Test func garbageAndMessagesThatAreNotOursAreIgnored() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            let random = SeededRandomSource(seed: 7)
            for size in [0, 1, 23, 24, 47, 48, 96, 600, 16_408] {
                await world.box.inject((0..<size).map { _ in UInt8(random.next() * 256) })
            }
            let envelope = Message.tick(Tick(seq: 1, uptimeMs: 9)).envelope(id: nil).encoded()
            for frame in [
                [1, 0, 0, 0, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 506),
                [2, 0, 0, 0, 0, 1, 0xA0] + [UInt8](repeating: 0, count: 505),
                [1, 7, 0, 0, 0, 1, 0xA0] + [UInt8](repeating: 0, count: 505),
                [1, 0, 0, 0, 0, 3, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 503),
                [1, 0, 0, 0, 0, UInt8(envelope.count - 1)] + envelope.dropLast(),
                [1, 1, 0, 0, 0, 2, 0xA1, 0x61] + [UInt8](repeating: 0, count: 1_016),
                [],
            ] {
                await world.box.injectFrame(frame)
            }
            await world.box.push(.unknown(type: "future.thing"))
            await world.box.push(.helloOK(SampleHello.make()), id: 99)
            await world.advance(by: .seconds(1))
            let answer = await world.read(Reads.plan, order: .plan)
            #expect(answer == .success(.plan(ScriptedBox.samplePlan)))
            #expect(world.dialer.dialCount == 1)
            #expect(await world.recorder.streamChanges == [.streamReturned(connection: 1)])
            #expect(await world.box.requests.map(\.id) == [1])
        }
    }

    @Test func theHandshakeSkipsRepliesMeantForOtherPhones() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.answersHandshakes = false } }) { world in
            await world.comeToFront()
            let random = SeededRandomSource(seed: 9)
            for size in [47, 48, 55, 96] { await world.box.inject((0..<size).map { _ in UInt8(random.next() * 256) }) }
            await world.advance(by: .seconds(1))
            #expect(await world.session.connectionState == .handshaking)
            await world.box.answerHandshake()
            await world.simulation.settle()
            guard case .streaming = await world.session.connectionState else {
                Issue.record("the handshake did not finish")
                return
            }
        }
    }

    @Test func theFirstHandshakeCarriesThePairingCodeAndLaterOnesNone() async throws {
        try await SessionWorld.run(payload: SessionWorld.pairingCode) { world in
            #expect(await world.session.identity.isKnownDevice == false)
            await world.comeToFront()
            await world.box.close()
            await world.advance(by: .seconds(2))
            #expect(await world.box.handshakePayloads == [SessionWorld.pairingCode, []])
            #expect(await world.session.identity.isKnownDevice)
        }
    }

    @Test func liveFramesArePublishedWithTheirConnectionArrivalAndTruncation() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(1))
            await world.box.push(.tick(Tick(seq: 1, uptimeMs: 7_000)))
            await world.advance(by: .seconds(1))
            await world.box.push(.delta(Delta(seq: 2, uptimeMs: 8_000, fields: [2: 10])), flags: .truncated)
            await world.box.push(.snap(Snap(uptimeMs: 8_500, controlRev: 8, dict: [:], fields: [:], sources: [:])))
            await world.simulation.settle()
            let frames = await world.recorder.events.compactMap { event -> TelemetryFrame? in
                if case .telemetry(let frame) = event { return frame }
                return nil
            }
            #expect(frames.map(\.connection) == [1, 1, 1, 1])
            #expect(frames.map { $0.arrivalMs - SessionWorld.originMs } == [0, 1_000, 2_000, 2_000])
            #expect(frames.map(\.uptimeMs) == [5_000, 7_000, 8_000, 8_500])
            #expect(await world.recorder.streamChanges == [.streamReturned(connection: 1)])
            guard case .delta(_, let truncated) = frames[2].message else {
                Issue.record("no delta")
                return
            }
            #expect(truncated)
        }
    }

    @Test func aPlanWithoutAnIdAndAnErrorWithoutAnIdAreAboutTheWholeSession() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            let error = ErrorBody(code: .booting, args: ["phase": .text("drivers")])
            await world.box.push(.plan(ScriptedBox.samplePlan))
            await world.box.push(.error(error))
            await world.simulation.settle()
            let events = await world.recorder.events
            #expect(events.contains(.planPushed(ScriptedBox.samplePlan)))
            #expect(events.contains(.boxError(error)))
        }
    }
}
