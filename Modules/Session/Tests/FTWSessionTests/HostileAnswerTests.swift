import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Synchronization
import Testing

/// A box that answers without end: every read has a total deadline however often the box breaks its silence, and a
/// history answer is refused once it holds more tiles (or a larger tile) than its query can have.
@Suite struct HostileAnswerTests {
    /// Answers an API read with its head only; the test trickles the chunks.
    private static let headOnly: @Sendable (ScriptedBox) async -> Void = { box in
        await box.configure { box in
            box.script = { message, id in
                guard case .apiReq = message else { return ScriptedBox.defaultScript(message, id) }
                return [ScriptedBox.Reply(message: .apiHead(APIHead(status: 200, headers: [:])), id: id)]
            }
        }
    }

    /// Answers a history read with `count` tiles of `bytes` bytes each, and no end.
    private static func tiles(_ count: Int, bytes: Int) -> @Sendable (ScriptedBox) async -> Void {
        { box in
            await box.configure { box in
                box.script = { message, id in
                    guard case .histQuery(let query) = message else { return ScriptedBox.defaultScript(message, id) }
                    return (0..<count).map {
                        ScriptedBox.Reply(message: .histChunk(.filler(for: query, index: $0, bytes: bytes)), id: id)
                    }
                }
            }
        }
    }

    @Test func aReadTrickledEveryTenSecondsFailsAtItsTotalDeadlineAndTheNextReadLeaves() async throws {
        try await SessionWorld.run(setUp: Self.headOnly) { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.chargers, order: .chargers)
                await reads.ask(Reads.plan, order: .plan)
                for seq in 0..<7 {
                    await world.advance(by: .seconds(10))
                    await world.box.push(.apiChunk(APIChunk(seq: UInt32(seq), data: [])), id: 1)
                }
            }
            guard case .failure(let error) = await results.results(of: Reads.chargers).first else {
                Issue.record("the trickled read did not fail")
                return
            }
            #expect(error.code == .timeout)
            #expect(error.message == "the box did not finish api.req #1 within 60.0 seconds")
            let requests = await world.box.requests
            #expect(requests.map(\.message.type) == ["api.req", "plan.get"])
            let planSentAfterMs = (requests.last?.atMs ?? 0) - (requests.first?.atMs ?? 0)
            #expect(planSentAfterMs == 60_017, "the total deadline, then one display frame")
            #expect(await results.errorCodes(of: Reads.plan).isEmpty)
        }
    }

    @Test func aHistoryAnswerWithMoreTilesThanItsQueryCanHaveIsRefused() async throws {
        try await SessionWorld.run(setUp: Self.tiles(500, bytes: 8)) { world in
            await world.comeToFront()
            let tilesTold = TileCount()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.history, order: .rest) { _ in tilesTold.add() }
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.plan, order: .plan)
                await world.advance(by: .seconds(1))
            }
            guard case .failure(let error) = await results.results(of: Reads.history).first else {
                Issue.record("the history read did not fail")
                return
            }
            #expect(error.code == .responseTooLarge)
            #expect(error.message == "hist.query #1 got more than 6 tiles or a tile over 672 bytes")
            #expect(tilesTold.value == 6)
            #expect(await results.errorCodes(of: Reads.plan).isEmpty)
        }
    }

    @Test func aTileLargerThanItsSeriesCanFillIsRefused() async throws {
        try await SessionWorld.run(setUp: Self.tiles(1, bytes: 673)) { world in
            await world.comeToFront()
            let result = await world.read(Reads.history, order: .rest)
            guard case .failure(let error) = result else {
                Issue.record("the oversize tile was kept: \(result)")
                return
            }
            #expect(error.code == .responseTooLarge)
        }
    }
}

/// Counts the tiles a history reader is told of.
private final class TileCount: Sendable {
    private let count = Mutex(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
