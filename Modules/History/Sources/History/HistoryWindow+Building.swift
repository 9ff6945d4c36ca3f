import BoxProtocol

extension HistoryWindow {
    /// The window of `held` as it reads at `nowMs`: `spanMs` of `stepMs` steps ending with the step holding now.
    ///
    /// MISSING inside a closed tile is a hole; past the newest reading of the newest tile still filling, every step
    /// without a reading is on its way (however long ago that tile came); a gap the box named overrides whatever is
    /// not a reading.
    static func build(
        from held: HeldHistory,
        series: [String],
        nowMs: Int64,
        spanMs: Int64,
        stepMs: Int64
    ) -> HistoryWindow {
        let step = max(1, stepMs)
        let count = max(1, Int(spanMs / step))
        let toMs = (floorDivide(nowMs, step) + 1) * step
        var canvas = Canvas(
            fromMs: toMs - Int64(count) * step,
            stepMs: step,
            samples: Array(repeating: Array(repeating: .absent, count: count), count: series.count)
        )
        var openEdgeMs: Int64?
        var openStartMs = Int64.min
        for tile in held.tiles.values where tile.stepMs == step {
            canvas.paint(tile)
            if tile.partial, tile.startMs > openStartMs {
                openStartMs = tile.startMs
                openEdgeMs = tile.startMs + Int64((tile.newestIndex ?? -1) + 1) * step
            }
        }
        if let openEdgeMs { canvas.markOnTheirWay(fromMs: openEdgeMs) }
        for gap in held.gaps { canvas.mark(gap) }
        return HistoryWindow(
            fromMs: canvas.fromMs,
            stepMs: step,
            columns: zip(series, canvas.samples).map { HistoryColumn(series: $0, samples: $1) },
            gaps: held.gaps,
            askedUnder: held.askedUnder,
            newestValueMs: canvas.newestValueMs
        )
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}

/// The samples being laid out, step by step.
private struct Canvas {
    let fromMs: Int64
    let stepMs: Int64
    var samples: [[HistorySample]]
    var newestValueMs: Int64?

    private var count: Int { samples.first?.count ?? 0 }

    /// The step index of `atMs`, or nil when it falls outside the window.
    private func index(_ atMs: Int64) -> Int? {
        guard atMs >= fromMs else { return nil }
        let index = (atMs - fromMs) / stepMs
        return index < Int64(count) ? Int(index) : nil
    }

    mutating func paint(_ tile: HeldTile) {
        let newest = tile.newestIndex ?? -1
        for (column, values) in zip(samples.indices, tile.columns) {
            for (point, value) in values.enumerated() {
                let atMs = tile.startMs + Int64(point) * stepMs
                guard let step = index(atMs) else { continue }
                if value != TileData.missing {
                    samples[column][step] = .value(value)
                    newestValueMs = max(newestValueMs ?? .min, atMs + stepMs)
                } else {
                    samples[column][step] = tile.partial && point > newest ? .onTheirWay : .missing
                }
            }
        }
    }

    mutating func markOnTheirWay(fromMs edgeMs: Int64) {
        let first = edgeMs <= fromMs ? 0 : index(edgeMs + stepMs - 1) ?? count
        for column in samples.indices {
            for step in first..<count where samples[column][step] == .absent {
                samples[column][step] = .onTheirWay
            }
        }
    }

    mutating func mark(_ gap: HistGap) {
        for column in samples.indices {
            for step in 0..<count {
                let atMs = fromMs + Int64(step) * stepMs
                guard atMs >= gap.fromMs, atMs < gap.toMs else { continue }
                if case .value = samples[column][step] { continue }
                samples[column][step] = .gap(gap.reason)
            }
        }
    }
}
