import FTWBoxProtocol

extension HistQuery {
    /// The most tiles an answer to this query can hold, whatever plan the box makes (protocol.md §4.2), plus one
    /// for a window that straddles a tile more on the box's clock: a history read keeps its tiles until `hist.end`,
    /// so a box that sends more is refused rather than kept.
    ///
    /// A resolution that is not the coarsest is only served when its points fit `maxPoints`, so it holds at most
    /// `maxPoints / pointsPerTile` tiles; the coarsest covers the window, at most 730 days.
    var maxTiles: Int {
        let cap = min(maxPoints.flatMap { $0 > 0 ? $0 : nil } ?? HistoryGeometry.maxPoints, HistoryGeometry.maxPoints)
        let longest = HistoryResolution.fineToCoarse.map(\.retentionMs).max() ?? 0
        let to = max(toMs, fromMs)
        let from = max(fromMs, to - longest)
        let coarsest = HistoryResolution.fineToCoarse.last
        let counts = HistoryResolution.fineToCoarse.drop { $0 != res }.map { res in
            let first = HistoryGeometry.tileStart(res, atMs: from)
            let last = HistoryGeometry.tileStart(res, atMs: max(from, to - 1))
            let covering = Int((last - first) / res.tileSpanMs) + 1
            return res == coarsest ? covering : min(covering, cap / res.pointsPerTile)
        }
        return (counts.max() ?? 0) + 1
    }

    /// The most bytes one tile of this query can hold: every series at the most points a tile has, 4 bytes each.
    var maxTileBytes: Int {
        series.count * (HistoryResolution.fineToCoarse.map(\.pointsPerTile).max() ?? 0) * 4
    }
}
