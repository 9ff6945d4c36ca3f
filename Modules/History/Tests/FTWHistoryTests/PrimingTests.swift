import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWHistory
import FTWHistoryTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// cache.md §6: the first live frame asks for the 48-hour window once, with no node open, the tile still filling
/// first; what lands in one display frame draws as one change.
@Suite struct PrimingTests {
    @Test func theFirstLiveFrameAsksOnceWithNoNodeOpenTheFillingTileFirst() async throws {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { _ in
            await world.streamReturns()
            await world.streaming(for: 60)
            await world.background(for: .seconds(30))
            await world.streamReturns()
            await world.streaming(for: 30)
        }
        let queries = await world.queries()
        try #require(queries.count == 2)
        let now = HistoryWorld.tenOhOne
        #expect(queries.map(\.fromMs) == [Landmarks.midnight, now - 48 * 60 * HistoryWorld.minute])
        #expect(queries.map(\.toMs) == [now, Landmarks.midnight])
        #expect(queries.allSatisfy { $0.have.isEmpty && $0.series == HistoryModel.Configuration.homeSeries })
    }

    @Test func thePrimedWindowHoldsTheBoxsReadingsByteForByte() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let run = await world.run { _ in await world.streamReturns() }
        let window = await run.model.window
        let now = HistoryWorld.tenOhOne
        #expect(window.stepCount == 576)
        #expect(window.toMs == Landmarks.midnight + (10 * 12 + 1) * 5 * HistoryWorld.minute)
        for (series, name) in HistoryModel.Configuration.homeSeries.enumerated() {
            for atMs in [now - 47 * 60 * HistoryWorld.minute, Landmarks.midnight - 300_000, now - 660_000] {
                let expected = ScriptedBox.reading(series: series, atMs: atMs, stepMs: 300_000, nowMs: now)
                #expect(window.sample(of: name, atMs: atMs) == .value(expected))
            }
        }
        #expect(window.newestValueMs == now - HistoryWorld.minute)
    }

    @Test func aBurstOfTilesLandingInOneFrameDrawsAsOneChange() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let run = await world.run { _ in
            await world.streamReturns()
            await world.frame()
        }
        #expect(run.changes.count == 1, "five tiles landed as \(run.changes.count) changes")
        #expect(run.changes.last?.newestValueMs == HistoryWorld.tenOhOne - HistoryWorld.minute)
    }

    @Test func theOldPolicyDoesNotPrimeAndAsksWhenANodeOpensOnEveryReturn() async {
        let world = HistoryWorld(policy: .everyReturn)
        defer { world.removeFolder() }
        await world.run { model in
            await world.streamReturns()
            await world.streaming(for: 10)
            #expect(await world.queries().isEmpty, "no priming under the old policy")
            model.send(.nodeViewAppeared)
            await world.frame()
            let opened = await world.queries().count
            #expect(opened == 2)
            await world.background(for: .seconds(30))
            await world.streamReturns()
            #expect(await world.queries().count == opened + 1, "asked again on the return, with the tiles as have")
        }
    }
}
