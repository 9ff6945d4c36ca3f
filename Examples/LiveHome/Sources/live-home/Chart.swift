import FTWClient

/// A small chart of one field's trace over the last five minutes: a column per time slice, restored samples as `o`,
/// live ones as `*`, and the time the app missed as `░` from top to bottom, with the value range on the left.
struct Chart {
    let rows: [String]

    init(trace: FieldTrace, nowMs: Int64, width: Int, height: Int) {
        let spanMs: Int64 = 5 * 60_000
        let fromMs = nowMs - spanMs
        let column = { (timeMs: Int64) in Int((timeMs - fromMs) * Int64(width - 1) / spanMs) }
        let shown = trace.samples.filter { $0.timeMs >= fromMs && $0.timeMs <= nowMs }
        let low = min(shown.map(\.value).min() ?? 0, 0)
        let high = max(shown.map(\.value).max() ?? 1, low + 1)
        var grid = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        for sample in shown {
            let row = height - 1 - Int((sample.value - low) / (high - low) * Double(height - 1))
            grid[row][column(sample.timeMs)] = sample.seen ? "*" : "o"
        }
        // The columns between the last restored point and the first live one, where nothing could be recorded.
        if let missed = trace.missed {
            let start = max(0, column(max(missed.fromMs, fromMs)) + 1)
            let end = min(width - 1, column(min(missed.untilMs ?? nowMs, nowMs)) - (missed.untilMs == nil ? 0 : 1))
            if start <= end {
                for row in 0..<height { for at in start...end { grid[row][at] = "░" } }
            }
        }
        let unit = trace.field.unit ?? ""
        let label = { (value: Double) in "\(Int(value)) \(unit)" }
        rows = grid.enumerated().map { index, cells in
            let edge = index == 0 ? label(high) : index == height - 1 ? label(low) : ""
            return String(repeating: " ", count: max(0, 10 - edge.count)) + edge + " |" + String(cells)
        }
    }
}
