/// One tile a history query covers: the unit the box sends and the app caches.
public struct TileRef: Sendable, Hashable {
    /// `<res>/<stride>/<floor(startMs / span)>`, such as `5m/3/40740`; the stride is part of it because averaged
    /// points hold different numbers.
    public var id: String
    /// The store the tile comes from.
    public var res: HistoryResolution
    /// Stored buckets averaged into one point.
    public var stride: Int
    /// The tile's wall-clock start, a multiple of the resolution's tile span.
    public var startMs: Int64
    /// The spacing of its points: the resolution's step times the stride.
    public var stepMs: Int64
    /// How many points it holds per series.
    public var points: Int
    /// Whether the tile is still filling (it ends after now); the app must never cache it.
    public var partial: Bool

    /// Makes a tile reference.
    public init(
        id: String,
        res: HistoryResolution,
        stride: Int,
        startMs: Int64,
        stepMs: Int64,
        points: Int,
        partial: Bool
    ) {
        self.id = id
        self.res = res
        self.stride = stride
        self.startMs = startMs
        self.stepMs = stepMs
        self.points = points
        self.partial = partial
    }

    /// The tile's wall-clock end (exclusive).
    public var endMs: Int64 { startMs + res.tileSpanMs }
}
