import FTWBoxProtocol
import FTWClockSeam
import FTWDemoBox
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import Testing

/// The live session against the demo box, in-process and simulated: enrolment, the asks log against the box's own
/// list, and a drop mid-request.
@Suite struct DemoBoxSessionTests {
    private static let prefs = ReadRequest.api(APIRequest(method: "GET", path: "/api/planner/preferences"))

    @Test func aPhoneEnrolsWithItsPairingCodeAndReconnectsAsAKnownDevice() async throws {
        try await DemoWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(3))
            #expect(await world.box.enrolledDevices.count == 1)
            #expect(await world.session.identity.isKnownDevice)
            await world.box.cutCarriers()
            await world.advance(by: .seconds(3))
            #expect(await world.box.enrolledDevices.count == 1)
            #expect(
                await world.recorder.streamChanges == [
                    .streamReturned(connection: 1), .streamLost(reason: "the carrier closed (1006 connection lost)"),
                    .streamReturned(connection: 2),
                ]
            )
            let ticks = await world.recorder.events.filter { event in
                if case .telemetry(let frame) = event, case .tick = frame.message { return true }
                return false
            }
            #expect(ticks.count == 4)
        }
    }

    @Test func theAsksLogEqualsTheDemoBoxsReceivedRequests() async throws {
        try await DemoWorld.run { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                for (read, order) in [
                    (Reads.history, ReadOrder.rest), (Reads.prices, .rest), (Reads.status, .status),
                    (Reads.plan, .plan), (Self.prefs, .prefs), (Reads.chargers, .chargers),
                ] {
                    await reads.ask(read, order: order)
                }
                _ = await world.command(
                    CommandRequest(op: "site.mode.set", args: ["mode": .text("self_consumption")]),
                    within: .seconds(5)
                )
                await world.box.cutCarriers()
                await world.advance(by: .seconds(3))
                await reads.ask(Reads.energy, order: .person)
                await world.advance(by: .seconds(3))
            }
            #expect(await results.settled.allSatisfy { $0.result.errorCode == nil })
            let asks = await world.session.asks
            let received = await world.box.receivedRequests
            #expect(asks.count == 8)
            #expect(asks.map(\.type) == received.map(\.type))
            #expect(asks.map(\.id) == received.map { $0.id ?? 0 })
            #expect(asks.map(\.atMs) == received.map(\.atMs))
            #expect(received.map(\.connection) == [1, 1, 1, 1, 1, 1, 1, 2])
            #expect(
                asks.prefix(6).map(\.detail).prefix(4) == [
                    "site.mode.set", "GET /api/loadpoints", "GET /api/planner/preferences", "plan",
                ]
            )
        }
    }

    @Test func aDropMidRequestLosesNoQueuedReadAgainstTheDemoBox() async throws {
        try await DemoWorld.run { world in
            await world.comeToFront()
            await world.box.setRelayLatency(.milliseconds(200))
            let results = try await world.withReads { reads in
                await reads.ask(Reads.history, order: .rest)
                await world.advance(by: .milliseconds(250))
                await reads.ask(Reads.chargers, order: .chargers)
                await reads.ask(Reads.plan, order: .plan)
                await world.box.cutCarriers()
                await world.advance(by: .seconds(5))
            }
            #expect(await results.errorCodes(of: Reads.history) == [.carrierLost])
            #expect(await results.errorCodes(of: Reads.chargers).isEmpty)
            #expect(await results.errorCodes(of: Reads.plan).isEmpty)
            let received = await world.box.receivedRequests
            #expect(received.map(\.type) == ["hist.query", "api.req", "plan.get"])
            #expect(received.map(\.connection) == [1, 2, 2])
        }
    }
}
