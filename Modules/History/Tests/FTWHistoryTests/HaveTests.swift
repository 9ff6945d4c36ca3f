import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWHistory
import FTWHistoryTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import Foundation
import Testing

/// cache.md §6: only closed tiles are offered to the box as held, and an unchanged one is never sent again.
@Suite struct HaveTests {
    private static let open = HistoryGeometry.tileID(.fiveMinutes, stride: 1, startMs: Landmarks.midnight)

    @Test func haveNamesEveryClosedTileHeldAndNeverThePartialOne() async throws {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            model.send(.nodeViewAppeared)
            await world.streaming(for: 5 * 60)
        }
        let queries = await world.queries()
        try #require(queries.count == 3)
        let turn = queries[2]
        let closed = ScriptedBox().answer(queries[1], nowMs: HistoryWorld.tenOhOne).chunks
        #expect(turn.have == closed.map { HaveEntry(tileId: $0.tileId, etag: $0.etag) }, "with the box's etags")
        #expect(!turn.have.contains { $0.tileId == Self.open })
        let resent = ScriptedBox().answer(turn, nowMs: HistoryWorld.tenOhOne + 5 * HistoryWorld.minute).chunks
        #expect(resent.map(\.tileId) == [Self.open], "so the box sends the open tile alone")
    }

    @Test func aRestoredOpenTileIsNeverOfferedAsHeld() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-have-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne)
        let relaunched = HistoryWorld(originMs: HistoryWorld.tenOhOne + 9 * HistoryWorld.minute, folder: folder)
        await relaunched.run { _ in await relaunched.streamReturns() }
        let queries = await relaunched.queries()
        #expect(queries.count == 1, "the closed tiles came back from the file: one query for the window")
        #expect(queries.first?.have.count == 4)
        #expect(queries.first?.have.contains { $0.tileId == Self.open } == false)
    }
}

/// A first launch that primes the window and is then killed, leaving its sealed file in `folder`.
enum Priming {
    static func prime(in folder: URL, atMs: Int64, box: ScriptedBox = ScriptedBox()) async {
        let world = HistoryWorld(originMs: atMs, folder: folder)
        await world.run(box: box) { _ in await world.streamReturns() }
    }
}
