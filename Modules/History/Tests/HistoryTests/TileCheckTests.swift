import BoxProtocol
import Bus
import Cache
import ClockSeam
import History
import HistoryTestSupport
import SessionInterface
import SessionTestSupport
import Testing

/// protocol.md §4.3: a tile's etag is FNV-1a over its data; a tile whose etag does not match is dropped with a
/// typed event, never drawn as a wrong value, and never offered as held.
@Suite struct TileCheckTests {
    private static let yesterday = HistoryWorld.tenOhOne - 24 * 60 * HistoryWorld.minute
    private static let tampered = HistoryGeometry.tileID(
        .fiveMinutes,
        stride: 1,
        startMs: Landmarks.midnight - 86_400_000
    )

    @Test func aChunkWhoseEtagDoesNotMatchIsDroppedAndAskedForAgain() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let run = await world.run(box: ScriptedBox(tamperedTile: Self.tampered)) { model in
            await world.streamReturns()
            #expect(await model.window.sample(of: "grid_w", atMs: Self.yesterday) == .absent, "never drawn")
            await world.script(ScriptedBox())
            model.send(.nodeViewAppeared)
            await world.streaming(for: 5 * 60)
        }
        #expect(run.refusals.map(\.code) == [.etagMismatch])
        #expect(run.refusals.map(\.tileId) == [Self.tampered])
        let turn = await world.queries().last
        #expect(turn?.have.contains { $0.tileId == Self.tampered } == false)
        #expect(turn?.have.count == 3)
        #expect(await run.model.window.sample(of: "grid_w", atMs: Self.yesterday) != .absent, "it came whole")
    }
}
