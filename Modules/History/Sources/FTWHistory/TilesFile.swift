import FTWBoxProtocol
import FTWCache

/// The contents of `tiles-<site>` (format version 1; the byte layout is in the module's README).
///
/// Binary, not JSON: 48 hours of four series are five tiles of 2304 bytes, and the file stays within a few hundred
/// bytes of that, so a cold start reads and draws it in frame one. Ids and steps are not stored, as the box's
/// geometry derives them from the resolution, the stride and the start.
package enum TilesFile {
    /// The layout version this build writes and reads, with every earlier one a release wrote (the golden corpus in
    /// Tests/EndToEndTests/Fixtures holds one of each). A newer one is kept on disk for the build that wrote it.
    package static let version: UInt8 = 1

    /// The bytes of `held`; tiles in start order, so the same holdings always give the same bytes.
    static func encode(_ held: HeldHistory, series: [String]) -> [UInt8] {
        var writer = TilesFileWriter()
        writer.byte(version)
        writer.text(held.askedUnder?.rawValue ?? "")
        writer.integer(held.askedAtMs ?? 0)
        writer.count(series.count)
        for name in series { writer.text(name) }
        writer.count(held.gaps.count)
        for gap in held.gaps {
            writer.integer(gap.fromMs)
            writer.integer(gap.toMs)
            writer.text(gap.reason.rawValue)
        }
        let tiles = held.tiles.values.sorted { ($0.startMs, $0.stride) < ($1.startMs, $1.stride) }
        writer.count(tiles.count)
        for tile in tiles {
            writer.text(tile.res.rawValue)
            writer.count(tile.stride)
            writer.integer(tile.startMs)
            writer.raw(Array(tile.etag.utf8))
            writer.byte(tile.partial ? 1 : 0)
            writer.raw(TileData.encode(tile.columns))
        }
        return writer.bytes
    }

    /// The holdings in `bytes`, which must be of `series`.
    ///
    /// - Throws: `HistoryError` with `.unreadableFile` for another version, other series, or bytes that do not
    ///   parse; never traps on them.
    static func decode(_ bytes: [UInt8], series: [String]) throws(HistoryError) -> HeldHistory {
        var reader = TilesFileReader(bytes)
        let found = try reader.byte()
        guard found == version else { throw reader.failure("format version \(found) is not \(version)") }
        var held = HeldHistory()
        let name = try reader.text()
        let askedAtMs = try reader.integer()
        if !name.isEmpty {
            held.askedUnder = AskName(name)
            held.askedAtMs = askedAtMs
        }
        let stored = try (0..<reader.count()).map { _ throws(HistoryError) in try reader.text() }
        guard stored == series else { throw reader.failure("the file holds \(stored), not \(series)") }
        held.gaps = try (0..<reader.count()).map { _ throws(HistoryError) in try gap(&reader) }
        for _ in 0..<(try reader.count()) { held.keep(try tile(&reader, series: series.count)) }
        guard reader.isAtEnd else { throw reader.failure("bytes follow the last tile") }
        return held
    }

    private static func gap(_ reader: inout TilesFileReader) throws(HistoryError) -> HistGap {
        HistGap(
            fromMs: try reader.integer(),
            toMs: try reader.integer(),
            reason: GapReason(rawValue: try reader.text())
        )
    }

    private static func tile(_ reader: inout TilesFileReader, series: Int) throws(HistoryError) -> HeldTile {
        guard let res = HistoryResolution(rawValue: try reader.text()) else { throw reader.failure("unknown res") }
        let stride = try reader.count()
        guard stride > 0, res.pointsPerTile % stride == 0 else { throw reader.failure("stride \(stride)") }
        let startMs = try reader.integer()
        let etag = try reader.raw(8)
        guard etag.allSatisfy(isLowercaseHex) else { throw reader.failure("an etag is not 8 hex digits") }
        let partial = try reader.byte() != 0
        let points = res.pointsPerTile / stride
        let data = Array(try reader.raw(series * points * 4))
        let columns: [[Int32]]
        do {
            columns = try TileData.decode(data, series: series, points: points)
        } catch {
            throw reader.failure(error.message)
        }
        return HeldTile(
            res: res,
            stride: stride,
            startMs: startMs,
            partial: partial,
            etag: etag.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) },
            columns: columns
        )
    }

    private static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
