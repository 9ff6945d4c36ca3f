/// One series of the window, step by step: what a chart draws as one line.
public struct HistoryColumn: Sendable, Hashable {
    /// The series name, such as `grid_w`.
    public var series: String
    /// One sample per step, oldest first.
    public var samples: [HistorySample]

    /// Makes a column.
    public init(series: String, samples: [HistorySample]) {
        self.series = series
        self.samples = samples
    }
}
