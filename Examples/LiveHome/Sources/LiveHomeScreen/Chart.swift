import FTWClient

/// A small chart of one field's trace over the last five minutes: a column per time slice, restored samples as `o`,
/// live ones as `*`, every missed stretch as `░` from top to bottom (the launch gap and each outage alike), and under
/// it `RESUMED` where live points came back; the value range on the left.
struct Chart {
    static let spanMs: Int64 = 5 * 60_000
    let rows: [String]

    init(trace: FieldTrace, missed: [MissedStretch], nowMs: Int64, width: Int, height: Int) {
        let fromMs = nowMs - Self.spanMs
        let column = { (timeMs: Int64) in Int((timeMs - fromMs) * Int64(width - 1) / Self.spanMs) }
        let shown = trace.samples.filter { $0.timeMs >= fromMs && $0.timeMs <= nowMs }
        let low = min(shown.map(\.value).min() ?? 0, 0)
        let high = max(shown.map(\.value).max() ?? 1, low + 1)
        var grid = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        var marks = Array(repeating: Character(" "), count: width)
        // The columns strictly between the last point before a stretch and the first after it (or now).
        for stretch in missed where (stretch.untilMs ?? nowMs) > fromMs {
            let start = max(0, column(max(stretch.fromMs, fromMs)) + 1)
            let end = stretch.untilMs.map { column($0) - 1 } ?? (width - 1)
            if start <= end {
                for row in 0..<height { for at in start...end { grid[row][at] = "░" } }
            }
            // Under the column live came back in, or ending at the right edge when it is that close to now.
            if let untilMs = stretch.untilMs {
                let word = Array("RESUMED")
                let at = max(0, min(column(untilMs), width - word.count))
                marks.replaceSubrange(at..<(at + word.count), with: word)
            }
        }
        for sample in shown {
            let row = height - 1 - Int((sample.value - low) / (high - low) * Double(height - 1))
            grid[row][column(sample.timeMs)] = sample.seen ? "*" : "o"
        }
        let unit = trace.field.unit ?? ""
        let label = { (value: Double) in "\(Int(value)) \(unit)" }
        let margin = 10
        rows =
            grid.enumerated().map { index, cells in
                let edge = index == 0 ? label(high) : index == height - 1 ? label(low) : ""
                return String(repeating: " ", count: max(0, margin - edge.count)) + edge + " |" + String(cells)
            } + [String(repeating: " ", count: margin + 2) + String(marks)]
    }
}
