public import FTWBoxProtocol
public import FTWSessionInterface

/// The box's side of `hist.query`, for tests and the benchmark: every series has a reading for each five minutes
/// that ended before now, tiles are planned, packed and tagged with the box's own arithmetic, `have` is honoured by
/// etag, and the tile still filling is always sent.
public struct ScriptedBox: Sendable {
    /// Ranges the box names in `hist.end` (and holds no readings for).
    public var gaps: [HistGap]
    /// A tile whose etag the box sends wrong, as a corrupted chunk would arrive.
    public var tamperedTile: String?

    /// Makes a box with readings everywhere but in `gaps`, and every etag right but `tamperedTile`'s.
    public init(gaps: [HistGap] = [], tamperedTile: String? = nil) {
        self.gaps = gaps
        self.tamperedTile = tamperedTile
    }

    /// The reading of series number `series` in the step starting at `atMs`, or MISSING while that step is not over:
    /// negative, zero and positive values in turn, different per series, the same on every ask.
    public static func reading(series: Int, atMs: Int64, stepMs: Int64, nowMs: Int64) -> Int32 {
        guard atMs + stepMs <= nowMs else { return TileData.missing }
        return Int32((atMs / stepMs) % 2000 - 1000) * Int32(series + 1)
    }

    /// The box's answer to `query` at `nowMs`.
    public func answer(_ query: HistQuery, nowMs: Int64) -> HistoryAnswer {
        let plan = HistoryGeometry.plan(
            res: query.res,
            fromMs: query.fromMs,
            toMs: query.toMs,
            maxPoints: query.maxPoints,
            nowMs: nowMs
        )
        let held = Dictionary(query.have.map { ($0.tileId, $0.etag) }) { first, _ in first }
        var chunks: [HistChunk] = []
        for tile in plan.tiles {
            let data = TileData.encode(columns(of: tile, series: query.series.count, nowMs: nowMs))
            let etag = Etag.of(data)
            if !tile.partial, held[tile.id] == etag { continue }
            chunks.append(
                HistChunk(
                    tileId: tile.id,
                    etag: tile.id == tamperedTile ? "0bade7a9" : etag,
                    res: plan.res,
                    startMs: tile.startMs,
                    stepMs: tile.stepMs,
                    series: query.series,
                    data: data,
                    partial: tile.partial
                )
            )
        }
        let named = gaps.filter { $0.fromMs < plan.toMs && $0.toMs > plan.fromMs }
        return HistoryAnswer(chunks: chunks, end: HistEnd(resActual: plan.res, gaps: plan.gaps + named))
    }

    private func columns(of tile: TileRef, series: Int, nowMs: Int64) -> [[Int32]] {
        (0..<series).map { column in
            (0..<tile.points).map { point in
                let atMs = tile.startMs + Int64(point) * tile.stepMs
                if gaps.contains(where: { atMs >= $0.fromMs && atMs < $0.toMs }) { return TileData.missing }
                return Self.reading(series: column, atMs: atMs, stepMs: tile.stepMs, nowMs: nowMs)
            }
        }
    }
}
