import FTWClockSeam
import FTWClockSeamTesting
import FTWHistory
import FTWHistoryTestSupport
import Foundation
import Testing

/// Issue 31: the history a chart draws carries when its newest value was true and what that rests on, as every
/// shown value does: the sealed tiles of an earlier run, then this run's answer; its age grows with the wall clock.
@Suite struct HistoryAgeTests {
    @Test func theWindowIsAsOfTheSealedTilesAtLaunchAndAnsweredOnceThisRunsAnswerLands() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-age-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = HistoryWorld(folder: folder)
        let drawn = await first.run { _ in await first.streamReturns() }.model.window
        let sealedMs = try #require(drawn.newestValueMs)
        #expect(drawn.asOf == AsOf(moment: sealedMs, basis: .answered))

        let later = HistoryWorld(originMs: HistoryWorld.tenOhOne + 20 * HistoryWorld.minute, folder: folder)
        let model = later.model()
        #expect(await model.window.asOf == .unknown, "nothing read nor answered yet")
        await model.restore()
        let restored = await model.window
        #expect(restored.asOf == AsOf(moment: sealedMs, basis: .sealedFile))
        let clock = later.simulation.clock
        await later.script(ScriptedBox())
        await later.with(model) { simulation in
            let launchAge = await model.window.asOf.ageMs(atWallMs: clock.nowMs)
            #expect(launchAge == clock.nowMs - sealedMs)
            await simulation.advance(by: .seconds(90))
            #expect(await model.window.asOf.ageMs(atWallMs: clock.nowMs) == (launchAge ?? 0) + 90_000)
            await later.streamReturns()
            let answered = await model.window
            #expect(answered.asOf.basis == .answered)
            #expect(answered.asOf.moment == answered.newestValueMs)
            #expect((answered.asOf.moment ?? 0) > sealedMs, "the answer brought the last twenty minutes")
        }
    }
}
