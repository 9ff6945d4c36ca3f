/// What the box will send for a history query: the resolution, the stride and the tiles, computed the same way on
/// both ends so the app can look tiles up in its cache before it asks.
public struct HistoryPlan: Sendable, Hashable {
    /// The resolution served, which may be coarser than the one asked for.
    public var res: HistoryResolution
    /// Stored buckets averaged into one point; a divisor of the resolution's points per tile.
    public var stride: Int
    /// The spacing of the points: the resolution's step times the stride.
    public var stepMs: Int64
    /// The window after clamping to now and to the longest retention.
    public var fromMs: Int64
    /// The window's end after clamping to now.
    public var toMs: Int64
    /// The tiles, oldest first.
    public var tiles: [TileRef]
    /// Ranges the retention window has already eaten (reason `evicted`), as the box reports them in `hist.end`.
    public var gaps: [HistGap]

    /// Makes a plan.
    public init(
        res: HistoryResolution,
        stride: Int,
        stepMs: Int64,
        fromMs: Int64,
        toMs: Int64,
        tiles: [TileRef],
        gaps: [HistGap]
    ) {
        self.res = res
        self.stride = stride
        self.stepMs = stepMs
        self.fromMs = fromMs
        self.toMs = toMs
        self.tiles = tiles
        self.gaps = gaps
    }

    /// How many points per series the whole answer holds.
    public var totalPoints: Int { tiles.reduce(0) { $0 + $1.points } }
}
