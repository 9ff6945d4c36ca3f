import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWHistory
import FTWHistoryTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
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

    /// Ways a tile can be wrong while its etag still matches its data.
    enum Damage: String, CaseIterable, Sendable {
        case unplanned, shiftedStart, otherSeries, shortData

        var code: HistoryError.Code {
            self == .shortData ? .badTileData : .unexpectedTile
        }

        func apply(to chunk: HistChunk) -> HistChunk {
            var chunk = chunk
            switch self {
            case .unplanned: chunk.tileId = "5m/1/1"
            case .shiftedStart: chunk.startMs += 300_000
            case .otherSeries: chunk.series = ["grid_w"]
            case .shortData: chunk.data.removeLast(4)
            }
            chunk.etag = Etag.of(chunk.data)
            return chunk
        }
    }

    @Test(arguments: Damage.allCases)
    func aTileThatIsNotThePlannedOneIsDropped(damage: Damage) async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let clock = world.simulation.clock
        await world.session.setAnswer { request in
            guard case .history(let query) = request else { return .failure(SessionError(.box, "not scripted")) }
            var answer = ScriptedBox().answer(query, nowMs: clock.nowMs)
            answer.chunks = answer.chunks.map { $0.tileId == Self.tampered ? damage.apply(to: $0) : $0 }
            return .success(.history(answer))
        }
        let run = await world.run(box: nil) { _ in await world.streamReturns() }
        #expect(run.refusals.map(\.code) == [damage.code])
        #expect(await run.model.window.sample(of: "grid_w", atMs: Self.yesterday) == .absent)
        #expect(await run.model.window.sample(of: "grid_w", atMs: Self.yesterday - 43_200_000) != .absent)
    }
}
