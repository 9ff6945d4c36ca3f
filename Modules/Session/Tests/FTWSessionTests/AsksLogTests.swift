import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// The asks log (cache.md §7): every request frame the session sends is logged, published and counted, and the
/// log equals what the box received.
@Suite struct AsksLogTests {
    @Test func theAsksLogEqualsTheBoxsListOfRequestFrames() async throws {
        let calls = Counter()
        try await SessionWorld.run(setUp: { box in
            await box.configure {
                $0.script = { message, id in
                    if case .apiReq = message, calls.next() == 1 {
                        return [
                            .init(
                                message: .error(ErrorBody(code: .unavailable, args: ["reason": .text("busy")])),
                                id: id
                            )
                        ]
                    }
                    return ScriptedBox.defaultScript(message, id)
                }
            }
        }) { world in
            _ = try await world.withReads { reads in
                for (read, order) in [
                    (Reads.history, ReadOrder.rest), (Reads.prices, .rest), (Reads.plan, .plan),
                    (Reads.chargers, .chargers),
                ] {
                    await reads.ask(read, order: order)
                }
                await world.comeToFront()
                _ = await world.command(CommandRequest(op: "loadpoint.hold", args: [:]), within: .seconds(2))
                await world.box.close()
                await world.advance(by: .seconds(2))
                await reads.ask(Reads.status, order: .status)
                await world.advance(by: .seconds(1))
            }
            let asks = await world.session.asks
            let received = await world.box.requests
            #expect(asks.count == 7)
            #expect(asks.map(\.type) == received.map(\.message.type))
            #expect(asks.map(\.id) == received.map { $0.id ?? 0 })
            #expect(asks.map(\.atMs) == received.map(\.atMs))
            let lines = world.log.entries(category: "asks")
            #expect(lines.count == asks.count)
            #expect(
                lines.map(\.message).prefix(2) == [
                    "stay 1 cmd #0 loadpoint.hold", "stay 1 api.req #1 GET /api/loadpoints",
                ]
            )
            let published = await world.recorder.events.compactMap { event -> AskRecord? in
                if case .asked(let record) = event { return record }
                return nil
            }
            #expect(published == asks)
            #expect(await world.session.requestsPerStay == [7])
        }
    }
}
