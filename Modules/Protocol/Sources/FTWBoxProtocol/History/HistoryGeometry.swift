/// The box's history arithmetic (§4.1-4.2, `planHistoryQuery`): which resolution, stride and tiles a window gets.
///
/// Both ends must land on the same tiles from the same inputs, or every etag comparison fails and the cache turns
/// into "always refetch"; so this follows the box term for term.
public enum HistoryGeometry {
    /// The most points an answer may hold, and the default when a query names no cap.
    public static let maxPoints = 2000

    /// The start of the tile holding `atMs`: tiles are aligned to the Unix epoch (5m tiles start at 00:00 and
    /// 12:00 UTC, 1h tiles on Thursdays).
    public static func tileStart(_ res: HistoryResolution, atMs: Int64) -> Int64 {
        floorDivide(atMs, res.tileSpanMs) * res.tileSpanMs
    }

    /// The id of the tile starting at `startMs`: `<res>/<stride>/<floor(startMs / span)>`.
    public static func tileID(_ res: HistoryResolution, stride: Int, startMs: Int64) -> String {
        "\(res.rawValue)/\(stride)/\(floorDivide(startMs, res.tileSpanMs))"
    }

    /// The plan for a query, as the box computes it.
    ///
    /// `toMs` is clamped to now and `fromMs` to the longest retention (and both into `[now - 730 days, now]`, so
    /// no request, however odd, makes the arithmetic overflow); the resolution is the first, from `res`
    /// towards coarser, whose tile-aligned span fits `maxPoints` (else the coarsest); the stride is the smallest
    /// divisor of the points per tile that fits. Time before the chosen resolution's retention is reported as an
    /// `evicted` gap; its tiles stay in the plan, as the box still sends them (all MISSING).
    ///
    /// - Parameters:
    ///   - res: The resolution asked for.
    ///   - fromMs: Window start, wall clock.
    ///   - toMs: Window end, wall clock (exclusive).
    ///   - maxPoints: The cap asked for; nil, zero or negative means the default, and the box never allows more
    ///     than ``maxPoints``.
    ///   - nowMs: The box's wall clock (trusted: a real time, not a value off the wire).
    public static func plan(
        res: HistoryResolution,
        fromMs: Int64,
        toMs: Int64,
        maxPoints: Int? = nil,
        nowMs: Int64
    ) -> HistoryPlan {
        let cap = Int64(min(maxPoints.flatMap { $0 > 0 ? $0 : nil } ?? Self.maxPoints, Self.maxPoints))
        let longest = HistoryResolution.fineToCoarse.map(\.retentionMs).max() ?? 0
        let earliest = nowMs - longest
        let to = min(max(toMs, earliest), nowMs)
        let from = min(max(fromMs, earliest), to)
        let chosen = resolution(from: res, fromMs: from, toMs: to, cap: cap)
        let stride = stride(chosen, span: alignedSpan(chosen, fromMs: from, toMs: to), cap: cap)
        let tiles = tiles(chosen, stride: stride, fromMs: from, toMs: to, nowMs: nowMs)
        return HistoryPlan(
            res: chosen,
            stride: stride,
            stepMs: chosen.stepMs * Int64(stride),
            fromMs: from,
            toMs: to,
            tiles: tiles,
            gaps: evictedGaps(chosen, requestedFromMs: fromMs, toMs: toMs, tiles: tiles, nowMs: nowMs)
        )
    }

    /// From the first tile's start to the end of the tile holding `toMs - 1`: transfer is whole tiles, so this is
    /// what must fit the cap.
    private static func alignedSpan(_ res: HistoryResolution, fromMs: Int64, toMs: Int64) -> Int64 {
        let first = tileStart(res, atMs: fromMs)
        let last = tileStart(res, atMs: max(fromMs, toMs - 1))
        return last + res.tileSpanMs - first
    }

    /// A coarser store before aggregating: coarser stored data is real data, an average of finer data is not.
    private static func resolution(
        from requested: HistoryResolution,
        fromMs: Int64,
        toMs: Int64,
        cap: Int64
    ) -> HistoryResolution {
        let candidates = HistoryResolution.fineToCoarse.drop { $0 != requested }
        let fitting = candidates.first { alignedSpan($0, fromMs: fromMs, toMs: toMs) / $0.stepMs <= cap }
        return fitting ?? HistoryResolution.fineToCoarse[HistoryResolution.fineToCoarse.count - 1]
    }

    /// The smallest divisor of the points per tile that brings the span under the cap, so tiles stay whole.
    private static func stride(_ res: HistoryResolution, span: Int64, cap: Int64) -> Int {
        let perTile = res.pointsPerTile
        let divisors = (1...perTile).filter { perTile % $0 == 0 }
        return divisors.first { span / (res.stepMs * Int64($0)) <= cap } ?? perTile
    }

    private static func tiles(
        _ res: HistoryResolution,
        stride: Int,
        fromMs: Int64,
        toMs: Int64,
        nowMs: Int64
    ) -> [TileRef] {
        let first = tileStart(res, atMs: fromMs)
        let last = tileStart(res, atMs: max(fromMs, toMs - 1))
        return Swift.stride(from: first, through: last, by: Int(res.tileSpanMs)).map { start in
            TileRef(
                id: tileID(res, stride: stride, startMs: start),
                res: res,
                stride: stride,
                startMs: start,
                stepMs: res.stepMs * Int64(stride),
                points: res.pointsPerTile / stride,
                partial: start + res.tileSpanMs > nowMs
            )
        }
    }

    private static func evictedGaps(
        _ res: HistoryResolution,
        requestedFromMs: Int64,
        toMs: Int64,
        tiles: [TileRef],
        nowMs: Int64
    ) -> [HistGap] {
        let retainedFrom = nowMs - res.retentionMs
        let start = min(requestedFromMs, tiles.first?.startMs ?? requestedFromMs)
        guard start < retainedFrom else { return [] }
        return [HistGap(fromMs: start, toMs: min(retainedFrom, toMs), reason: .evicted)]
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
