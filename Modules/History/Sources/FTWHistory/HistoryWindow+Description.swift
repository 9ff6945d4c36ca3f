extension HistoryWindow: CustomStringConvertible {
    /// One line: the span, its series and steps, its gaps and as of when, not every sample; the instant printed as
    /// every text of the client prints one.
    public var description: String {
        "window \(fromMs)..\(toMs), \(columns.count) series of \(stepCount) steps, \(gaps.count) gaps, as of \(asOf)"
    }
}
