import FTWBoxProtocol

/// One series of the window, step by step: what a chart draws as one line.
public struct HistoryColumn: Sendable, Hashable {
    /// The series name, such as `grid_w`.
    public let series: String
    /// The readings in W, oldest first; `Int32.min` (the box's MISSING) where the step has none, and the step's
    /// sample says why.
    public let values: [Int32]
    let steps: HistorySteps

    init(series: String, values: [Int32], steps: HistorySteps) {
        self.series = series
        self.values = values
        self.steps = steps
    }

    /// The sample of step `step` (0 is the oldest).
    public subscript(step: Int) -> HistorySample {
        steps.sample(values[step], at: step)
    }

    /// Every sample, oldest first.
    public var samples: [HistorySample] {
        values.indices.map { self[$0] }
    }

    /// How many steps hold a reading (a `.value` sample): what a launch reports it drew, counted on the values
    /// without making a sample each (a cold start with 48 hours of four series would make 2 304 of them).
    public var readings: Int {
        values.reduce(0) { $0 + ($1 == TileData.missing ? 0 : 1) }
    }
}
