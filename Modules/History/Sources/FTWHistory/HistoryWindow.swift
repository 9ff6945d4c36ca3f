public import FTWBoxProtocol
public import FTWCache
public import FTWClockSeam

/// The history a chart draws: every series of the window, one sample per step, ending with the step that holds
/// now.
///
/// A value, so a chart can hold on to the window it drew while the model moves on, and a test can compare two.
public struct HistoryWindow: Sendable, Hashable {
    /// The start of the first step, wall clock (Unix ms).
    public let fromMs: Int64
    /// The width of one step (five minutes at stride 1).
    public let stepMs: Int64
    /// One column per series, in the model's series order.
    public let columns: [HistoryColumn]
    /// The ranges the box named as ones it cannot serve, kept as it named them.
    public let gaps: [HistGap]
    /// The five-minute name the window was last asked under; nil when it was never asked.
    public let askedUnder: AskName?
    /// The end of the newest step holding a reading in any series: where the drawn line ends.
    public let newestValueMs: Int64?
    /// When the window's newest value was true (``newestValueMs``) and what that rests on: `answered`
    /// once this run's answer brought tiles, `sealed_file` while it shows the sealed tiles of an earlier
    /// run, unknown before either. Its age grows with the wall clock while nothing new lands.
    public let asOf: AsOf

    /// How many steps every column holds.
    public var stepCount: Int { columns.first?.values.count ?? 0 }

    /// The end of the last step (exclusive): the right edge of the window.
    public var toMs: Int64 { fromMs + stepMs * Int64(stepCount) }

    /// The column of `series`, or nil when the window has no such series.
    public func column(_ series: String) -> HistoryColumn? {
        columns.first { $0.series == series }
    }

    /// The sample of `series` in the step holding `atMs`, or nil when either is outside the window.
    public func sample(of series: String, atMs: Int64) -> HistorySample? {
        guard let column = column(series), atMs >= fromMs, stepMs > 0 else { return nil }
        let index = (atMs - fromMs) / stepMs
        return index < Int64(column.values.count) ? column[Int(index)] : nil
    }
}
