public import BoxProtocol
public import Cache

/// The history a chart draws: every series of the window, one sample per step, ending with the step that holds
/// now.
///
/// A value, so a chart can hold on to the window it drew while the model moves on, and a test can compare two.
public struct HistoryWindow: Sendable, Hashable {
    /// The start of the first step, wall clock (Unix ms).
    public var fromMs: Int64
    /// The width of one step (five minutes at stride 1).
    public var stepMs: Int64
    /// One column per series, in the model's series order.
    public var columns: [HistoryColumn]
    /// The ranges the box named as ones it cannot serve, kept as it named them.
    public var gaps: [HistGap]
    /// The five-minute name the window was last asked under; nil when it was never asked.
    public var askedUnder: AskName?
    /// The end of the newest step holding a reading in any series: where the drawn line ends.
    public var newestValueMs: Int64?

    /// Makes a window.
    public init(
        fromMs: Int64,
        stepMs: Int64,
        columns: [HistoryColumn],
        gaps: [HistGap] = [],
        askedUnder: AskName? = nil,
        newestValueMs: Int64? = nil
    ) {
        self.fromMs = fromMs
        self.stepMs = stepMs
        self.columns = columns
        self.gaps = gaps
        self.askedUnder = askedUnder
        self.newestValueMs = newestValueMs
    }

    /// How many steps every column holds.
    public var stepCount: Int { columns.first?.samples.count ?? 0 }

    /// The end of the last step (exclusive): the right edge of the window.
    public var toMs: Int64 { fromMs + stepMs * Int64(stepCount) }

    /// The samples of `series`, or nil when the window has no such series.
    public func samples(of series: String) -> [HistorySample]? {
        columns.first { $0.series == series }?.samples
    }

    /// The sample of `series` in the step holding `atMs`, or nil when either is outside the window.
    public func sample(of series: String, atMs: Int64) -> HistorySample? {
        guard let samples = samples(of: series), atMs >= fromMs, stepMs > 0 else { return nil }
        let index = (atMs - fromMs) / stepMs
        return index < Int64(samples.count) ? samples[Int(index)] : nil
    }
}
