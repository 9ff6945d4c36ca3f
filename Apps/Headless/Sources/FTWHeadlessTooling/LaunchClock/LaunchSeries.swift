/// Cold launches of one kind (with or without sealed files), each timed, and their spreads.
public struct LaunchSeries: Sendable, Hashable, Codable {
    /// Every launch, in the order it ran.
    public var launches: [LaunchTimes]
    /// Until the program's own code ran.
    public var main: LaunchSpread
    /// Until every model was built.
    public var built: LaunchSpread
    /// Until the sealed files were drawn.
    public var content: LaunchSpread
    /// The processor time the process had used at the first content.
    public var contentCPU: LaunchSpread
    /// Until the first live reading.
    public var live: LaunchSpread
    /// Building every model and reading every file.
    public var buildAndRead: LaunchSpread
    /// The median of building and reading over the median time to live: the share of the wait that is ours.
    public var buildAndReadShare: Double

    /// The spreads of `launches`.
    public init(_ launches: [LaunchTimes]) {
        self.launches = launches
        main = LaunchSpread(launches.map(\.mainMs))
        built = LaunchSpread(launches.map(\.builtMs))
        content = LaunchSpread(launches.map(\.contentMs))
        contentCPU = LaunchSpread(launches.map(\.contentCPUMs))
        live = LaunchSpread(launches.map(\.liveMs))
        buildAndRead = LaunchSpread(launches.map(\.buildAndReadMs))
        buildAndReadShare = live.median > 0 ? buildAndRead.median / live.median : 0
    }
}
