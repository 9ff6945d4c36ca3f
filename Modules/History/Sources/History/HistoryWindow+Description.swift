extension HistoryWindow: CustomStringConvertible {
    /// One line: the span, its series and steps, and its gaps, not every sample.
    public var description: String {
        "window \(fromMs)..\(toMs), \(columns.count) series of \(stepCount) steps, \(gaps.count) gaps"
    }
}
