public import FTWClient

/// One cold launch, timed from the moment its process was started: what a person waits for, stage by stage.
public struct LaunchTimes: Sendable, Hashable, Codable {
    /// Milliseconds until the program's own code ran (the process loaded: what no model can shorten).
    public var mainMs: Double
    /// Milliseconds until every model was built: the first frame could draw its empty screen.
    public var builtMs: Double
    /// Milliseconds until the sealed files were read and drawn: the first content.
    public var contentMs: Double
    /// The processor time the process had used (every thread, user and kernel) at the first content, in
    /// milliseconds: what the launch cost the phone, which waiting behind other processes does not inflate.
    public var contentCPUMs: Double
    /// Milliseconds until the first live reading arrived over the relay.
    public var liveMs: Double
    /// What the sealed files drew at the first content.
    public var drawn: DrawnFromFiles

    /// Makes a record.
    public init(
        mainMs: Double,
        builtMs: Double,
        contentMs: Double,
        contentCPUMs: Double,
        liveMs: Double,
        drawn: DrawnFromFiles
    ) {
        self.mainMs = mainMs
        self.builtMs = builtMs
        self.contentMs = contentMs
        self.contentCPUMs = contentCPUMs
        self.liveMs = liveMs
        self.drawn = drawn
    }

    /// The part that is ours before the first content: building every model and reading every file.
    public var buildAndReadMs: Double { contentMs - mainMs }
}
