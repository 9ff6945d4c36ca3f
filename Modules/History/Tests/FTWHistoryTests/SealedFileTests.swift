import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWHistory
import FTWHistoryTestSupport
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import Foundation
import Testing

/// cache.md §5: `tiles-<site>` holds the closed tiles for 48 hours and the tile still filling (about 11.5 KB), with
/// the name the window was asked under and the gaps the box named; a file that fails reads as empty.
@Suite struct SealedFileTests {
    /// Five tiles of four series (5 × 2304 bytes of samples) and the seal's 50 bytes, with at most 256 bytes of
    /// headers: 11.5 KB.
    private static let fiveTiles = (5 * 2304 + 50)...(5 * 2304 + 50 + 256)

    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("history-file-\(UUID().uuidString)")
    }

    @Test func theSealedFileFor48HoursOfFourSeriesStaysNear11_5KB() async throws {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { _ in await world.streamReturns() }
        let size = try #require(await world.tilesFileSize())
        #expect(Self.fiveTiles.contains(size), "five tiles of 2304 bytes, their headers and the seal: \(size) bytes")
    }

    @Test func tilesThatFellOutOfTheWindowAreDroppedWhenWriting() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne)
        let later = HistoryWorld(originMs: HistoryWorld.tenOhOne + 13 * 60 * HistoryWorld.minute, folder: folder)
        await later.run { _ in await later.streamReturns() }
        #expect(Self.fiveTiles.contains(try #require(await later.tilesFileSize())), "still five tiles, not six")
    }

    /// A relaunch draws from the file the very window the model drew before it was killed, sample for sample: at
    /// several hours of the day (the tile still filling nearly empty or nearly full), with and without gaps the box
    /// named; and what a launch reports it drew (`readings`) is the count of the window's readings.
    @Test(arguments: [0, 5, 11, 12, 23], [false, true])
    func aRelaunchDrawsTheWindowTheModelDrew(hoursLater: Int, withGaps: Bool) async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let atMs = HistoryWorld.tenOhOne + Int64(hoursLater) * 60 * HistoryWorld.minute
        let gaps =
            withGaps
            ? [HistGap(fromMs: atMs - 30 * 60 * HistoryWorld.minute, toMs: atMs - 1_500_000, reason: .evicted)] : []
        let primed = HistoryWorld(originMs: atMs, folder: folder)
        let drawn = await primed.run(box: ScriptedBox(gaps: gaps)) { _ in await primed.streamReturns() }.model.window
        let relaunched = HistoryWorld(originMs: atMs, folder: folder)
        let model = relaunched.model()
        await model.restore()
        let restored = await model.window
        #expect(restored.columns == drawn.columns && restored.gaps == drawn.gaps && restored.fromMs == drawn.fromMs)
        #expect(restored.askedUnder == drawn.askedUnder)
        #expect(restored.asOf == AsOf(moment: drawn.newestValueMs, basis: .sealedFile), "the sealed tiles' moment")
        #expect(restored.columns.map(\.values).joined().contains { $0 != TileData.missing })
        for column in restored.columns {
            #expect(column.readings == column.samples.filter { if case .value = $0 { true } else { false } }.count)
        }
    }

    @Test func aTamperedTilesFileOpensAsEmpty() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne)
        let file = folder.appendingPathComponent(SealedFileName.tiles(HistoryWorld.site).fileName)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: file)
        let relaunched = HistoryWorld(originMs: HistoryWorld.tenOhOne + HistoryWorld.minute, folder: folder)
        let seals = relaunched.sealEvents.subscribe()
        let model = relaunched.model()
        await model.restore()
        let window = await model.window
        #expect(window.columns.allSatisfy { $0.samples.allSatisfy { $0 == .absent } })
        #expect(window.askedUnder == nil)
        relaunched.sealEvents.finish()
        #expect(await drained(seals) == [.dropped(file: file.lastPathComponent, reason: .tampered)])
    }

    @Test(arguments: [0, 1, 40, 5_000, 11_685])
    func aTilesFileThisBuildCannotReadOpensAsEmpty(keptBytes: Int) async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne)
        let world = HistoryWorld(originMs: HistoryWorld.tenOhOne + HistoryWorld.minute, folder: folder)
        let contents = try #require(await world.store.read(.tiles(HistoryWorld.site)))
        let unreadable = keptBytes == 0 ? [0] + contents.dropFirst() : Array(contents.prefix(keptBytes))
        try await world.store.write(unreadable, to: .tiles(HistoryWorld.site))
        let run = await world.run(box: nil) { model in await model.restore() }
        #expect(run.refusals.map(\.code) == [.unreadableFile])
        #expect(await run.model.window.newestValueMs == nil)
    }

    /// A newer build's tiles (issue 32): the window starts empty, and the file is kept as it is and never written
    /// over, for that build.
    @Test func aTilesFileOfANewerBuildIsKeptAndNeverWrittenOver() async throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne)
        let world = HistoryWorld(originMs: HistoryWorld.tenOhOne + HistoryWorld.minute, folder: folder)
        let contents = try #require(await world.store.read(.tiles(HistoryWorld.site)))
        let newer = [TilesFile.version + 1] + contents.dropFirst()
        try await world.store.write(newer, to: .tiles(HistoryWorld.site))
        let run = await world.run(box: nil) { model in
            await model.restore()
            await model.persist()
        }
        #expect(run.refusals.isEmpty)
        #expect(await run.model.window.newestValueMs == nil)
        #expect(await world.store.read(.tiles(HistoryWorld.site)) == newer)
    }

    @Test func gapsFromHistEndAreKeptAcrossAKill() async {
        let folder = folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let yesterdayTen = HistoryWorld.tenOhOne - 24 * 60 * HistoryWorld.minute - HistoryWorld.minute
        let gap = HistGap(fromMs: yesterdayTen, toMs: yesterdayTen + 60 * HistoryWorld.minute, reason: .boxDown)
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne, box: ScriptedBox(gaps: [gap]))
        let relaunched = HistoryWorld(originMs: HistoryWorld.tenOhOne + HistoryWorld.minute, folder: folder)
        let model = relaunched.model()
        await model.restore()
        let window = await model.window
        #expect(window.gaps == [gap])
        for minutes in [0, 30, 55] {
            let atMs = yesterdayTen + Int64(minutes) * HistoryWorld.minute
            #expect(window.sample(of: "pv_w", atMs: atMs) == .gap(.boxDown))
        }
        #expect(window.sample(of: "pv_w", atMs: yesterdayTen + 60 * HistoryWorld.minute) != .gap(.boxDown))
    }
}
