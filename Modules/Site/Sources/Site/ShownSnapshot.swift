/// The snapshot the Now screen draws, with where it came from, so restored readings are marked as cached and aged.
public struct ShownSnapshot: Sendable, Hashable {
    /// The readings.
    public var snapshot: SiteSnapshot
    /// Live or from the cache.
    public var origin: SnapshotOrigin
    /// For live readings, when this connection's first snapshot arrived (wall clock, Unix ms): what a status line
    /// says they are live since; nil for readings from the cache.
    public var liveSinceMs: Int64?

    /// Makes a shown snapshot.
    public init(snapshot: SiteSnapshot, origin: SnapshotOrigin, liveSinceMs: Int64? = nil) {
        self.snapshot = snapshot
        self.origin = origin
        self.liveSinceMs = liveSinceMs
    }

    /// Whether the readings come from this run's stream.
    public var isLive: Bool {
        if case .live = origin { true } else { false }
    }

    /// How old the readings are at `nowMs`: since the box's last frame that confirmed them.
    public func ageMs(nowMs: Int64) -> Int64 {
        max(0, nowMs - snapshot.takenAtMs)
    }
}
