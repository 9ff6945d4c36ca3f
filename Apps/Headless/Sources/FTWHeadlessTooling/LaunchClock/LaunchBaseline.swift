/// The baseline's runs and their spreads, set beside the client's launches with sealed files.
public struct LaunchBaseline: Sendable, Hashable, Codable {
    /// Every run, in the order it ran.
    public var runs: [LaunchBaselineTimes]
    /// Until its `main` ran.
    public var main: LaunchSpread
    /// Until the last file was opened.
    public var content: LaunchSpread
    /// The processor time it had used when the last file was opened.
    public var contentCPU: LaunchSpread

    /// The spreads of `runs`.
    public init(_ runs: [LaunchBaselineTimes]) {
        self.runs = runs
        main = LaunchSpread(runs.map(\.mainMs))
        content = LaunchSpread(runs.map(\.contentMs))
        contentCPU = LaunchSpread(runs.map(\.contentCPUMs))
    }
}
