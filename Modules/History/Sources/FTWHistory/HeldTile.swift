import FTWBoxProtocol

/// One tile the model holds: the box's samples for twelve hours, decoded once into columns.
///
/// A tile received as partial stays partial after its twelve hours are over: its etag is that of unfinished data, so
/// it is never offered as held, and its missing tail reads as on its way until the closed tile replaces it.
struct HeldTile: Sendable, Hashable {
    let res: HistoryResolution
    let stride: Int
    let startMs: Int64
    /// Set when the tile was still filling as the box sent it.
    let partial: Bool
    let etag: String
    /// One column per series, in the model's series order.
    let columns: [[Int32]]
    /// The index of the newest point holding a reading in any series; nil when none does.
    let newestIndex: Int?

    init(res: HistoryResolution, stride: Int, startMs: Int64, partial: Bool, etag: String, columns: [[Int32]]) {
        self.res = res
        self.stride = stride
        self.startMs = startMs
        self.partial = partial
        self.etag = etag
        self.columns = columns
        newestIndex = columns.compactMap { column in column.lastIndex { $0 != TileData.missing } }.max()
    }

    var id: String { HistoryGeometry.tileID(res, stride: stride, startMs: startMs) }
    var stepMs: Int64 { res.stepMs * Int64(stride) }
    var endMs: Int64 { startMs + res.tileSpanMs }
}

extension HeldTile {
    /// Checks a tile as it lands against the read's plan, its etag and its data, and decodes it.
    ///
    /// - Throws: `HistoryError`: `.unexpectedTile` when the plan has no such tile or its shape differs,
    ///   `.etagMismatch` when the etag is not the data's, `.badTileData` when the data is not the planned columns.
    init(landing chunk: HistChunk, planned: [TileRef], series: [String]) throws(HistoryError) {
        guard let ref = planned.first(where: { $0.id == chunk.tileId }), ref.res == chunk.res,
            ref.startMs == chunk.startMs, ref.stepMs == chunk.stepMs, chunk.series == series
        else {
            throw HistoryError(.unexpectedTile, "the query planned no such tile", tileId: chunk.tileId)
        }
        guard Etag.of(chunk.data) == chunk.etag else {
            throw HistoryError(.etagMismatch, "etag \(chunk.etag) is not that of the data", tileId: chunk.tileId)
        }
        let columns: [[Int32]]
        do {
            columns = try TileData.decode(chunk.data, series: series.count, points: ref.points)
        } catch {
            throw HistoryError(.badTileData, error.message, tileId: chunk.tileId, cause: error)
        }
        self.init(
            res: ref.res,
            stride: ref.stride,
            startMs: ref.startMs,
            partial: chunk.partial,
            etag: chunk.etag,
            columns: columns
        )
    }
}
