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

/// cache.md §5-6: after a kill the sealed window draws before anything connects, the minutes since read as on
/// their way, its five-minute name still stands, and the right edge never pulls back while the open tile comes.
@Suite struct KillTests {
    private static let elevenFifty = Landmarks.noon - 10 * HistoryWorld.minute

    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("history-kill-\(UUID().uuidString)")
    }

    @Test func afterAKillHistoryDrawsBeforeAnythingConnectsAndTheMinutesSinceAreOnTheirWay() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: Self.elevenFifty)
        let relaunched = HistoryWorld(originMs: Landmarks.noon + 7 * HistoryWorld.minute, folder: folder)
        let model = relaunched.model()
        await model.restore()
        let window = await model.window
        #expect(window.newestValueMs == Self.elevenFifty)
        let before = Self.elevenFifty - 5 * HistoryWorld.minute
        let reading = ScriptedBox.reading(series: 0, atMs: before, stepMs: 300_000, nowMs: Self.elevenFifty)
        #expect(window.sample(of: "grid_w", atMs: before) == .value(reading))
        for minutes in stride(from: 0, through: 15, by: 5) {
            let atMs = Self.elevenFifty + Int64(minutes) * HistoryWorld.minute
            for series in HistoryModel.Configuration.homeSeries {
                #expect(window.sample(of: series, atMs: atMs) == .onTheirWay, "\(series), \(minutes) min after")
            }
        }
        #expect(window.toMs == Landmarks.noon + 10 * HistoryWorld.minute, "up to the step holding now")
        #expect(await relaunched.queries().isEmpty)
    }

    @Test func aNodeOpenedAfterAKillWithinTheSameFiveMinutesAsksNothing() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne)
        let relaunched = HistoryWorld(originMs: HistoryWorld.tenOhOne + 150_000, folder: folder)
        await relaunched.run { model in
            await relaunched.streamReturns()
            model.send(.nodeViewAppeared)
            await relaunched.streaming(for: 30)
        }
        #expect(await relaunched.queries().isEmpty)
    }

    @Test func theRightEdgeNeverPullsBackWhileTheOpenTileComes() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: Self.elevenFifty)
        let relaunched = HistoryWorld(originMs: Landmarks.noon + 3 * HistoryWorld.minute, folder: folder)
        let run = await relaunched.run { model in
            let restored = await model.window
            #expect(restored.newestValueMs == Self.elevenFifty)
            await relaunched.session.hold()
            await relaunched.streamReturns()
            model.send(.nodeViewAppeared)
            await relaunched.streaming(for: 3)
            #expect(await relaunched.session.inFlight.count == 1, "the open tile is on its way")
            let waiting = await model.window
            #expect(waiting.newestValueMs == restored.newestValueMs, "the window still ends where it did")
            #expect(waiting.columns == restored.columns)
            await relaunched.session.release()
            await relaunched.frame()
        }
        let queries = await relaunched.queries()
        #expect(queries.first?.fromMs == Landmarks.noon, "the tile still filling first")
        let landed = await run.model.window
        #expect(landed.newestValueMs == Landmarks.noon)
        #expect(landed.sample(of: "load_w", atMs: Self.elevenFifty + 5 * HistoryWorld.minute) != .onTheirWay)
    }
}
