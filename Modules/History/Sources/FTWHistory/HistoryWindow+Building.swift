import FTWBoxProtocol
import FTWClockSeam

extension HistoryWindow {
    /// The window of `held` as it reads at `nowMs`: `spanMs` of `stepMs` steps ending with the step holding now, its
    /// newest value as of `basis` (where the tiles came from).
    ///
    /// MISSING inside a closed tile is a hole; past the newest reading of the newest tile still filling, every step
    /// without a reading is on its way (however long ago that tile came); a gap the box named stands for whatever
    /// is not a reading.
    static func build(
        from held: HeldHistory,
        series: [String],
        nowMs: Int64,
        spanMs: Int64,
        stepMs: Int64,
        basis: AsOf.Basis
    ) -> HistoryWindow {
        let step = max(1, stepMs)
        let count = max(1, Int(spanMs / step))
        let toMs = (floorDivide(nowMs, step) + 1) * step
        var canvas = Canvas(fromMs: toMs - Int64(count) * step, stepMs: step, count: count, series: series.count)
        var open: (startMs: Int64, edgeMs: Int64)?
        for tile in held.tiles.values where tile.stepMs == step && tile.columns.count == series.count {
            canvas.paint(tile)
            if tile.partial, tile.startMs > open?.startMs ?? .min {
                open = (tile.startMs, tile.startMs + Int64((tile.newestIndex ?? -1) + 1) * step)
            }
        }
        if let open { canvas.markOnTheirWay(fromMs: open.edgeMs) }
        for gap in held.gaps { canvas.mark(gap) }
        return HistoryWindow(
            fromMs: canvas.fromMs,
            stepMs: step,
            columns: zip(series, canvas.values).map { HistoryColumn(series: $0, values: $1, steps: canvas.steps) },
            gaps: held.gaps,
            askedUnder: held.askedUnder,
            newestValueMs: canvas.newestValueMs,
            asOf: AsOf(moment: canvas.newestValueMs, basis: basis)
        )
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}

/// The window being laid out: readings column by column, what each step says where there is none.
private struct Canvas {
    let fromMs: Int64
    let stepMs: Int64
    let count: Int
    var values: [[Int32]]
    var steps: HistorySteps
    var newestValueMs: Int64?

    init(fromMs: Int64, stepMs: Int64, count: Int, series: Int) {
        self.fromMs = fromMs
        self.stepMs = stepMs
        self.count = count
        values = Array(repeating: Array(repeating: TileData.missing, count: count), count: series)
        steps = HistorySteps(count: count)
    }

    /// The first step starting at or after `atMs` (`count` when none does).
    private func firstStep(atOrAfter atMs: Int64) -> Int {
        guard atMs > fromMs else { return 0 }
        return Int(min(Int64(count), (atMs - fromMs + stepMs - 1) / stepMs))
    }

    /// Copies the tile's points that fall in the window, whole ranges at a time.
    mutating func paint(_ tile: HeldTile) {
        let points = tile.columns.first?.count ?? 0
        let first = firstStep(atOrAfter: tile.startMs)
        let lower = Int((fromMs + Int64(first) * stepMs - tile.startMs) / stepMs)
        let upper = min(points, lower + count - first)
        guard lower < upper else { return }
        for (column, source) in tile.columns.enumerated() {
            values[column].replaceSubrange(first..<first + upper - lower, with: source[lower..<upper])
        }
        let filled = tile.partial ? (tile.newestIndex ?? -1) + 1 : points
        for point in lower..<upper {
            steps.codes[first + point - lower] = point < filled ? HistorySteps.held : HistorySteps.onTheirWay
        }
        if let newest = tile.newestIndex, newest >= lower, newest < upper {
            newestValueMs = max(newestValueMs ?? .min, tile.startMs + Int64(newest + 1) * stepMs)
        }
    }

    /// Past the open tile's newest reading nothing was asked yet that is not on its way.
    mutating func markOnTheirWay(fromMs edgeMs: Int64) {
        for step in firstStep(atOrAfter: edgeMs)..<count where steps.codes[step] == HistorySteps.absent {
            steps.codes[step] = HistorySteps.onTheirWay
        }
    }

    mutating func mark(_ gap: HistGap) {
        let code = steps.code(of: gap.reason)
        let first = firstStep(atOrAfter: gap.fromMs)
        let end = max(first, firstStep(atOrAfter: gap.toMs))
        for step in first..<end { steps.codes[step] = code }
    }
}
