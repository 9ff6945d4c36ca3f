/// The snapshot the Now screen draws, with where it came from, so restored readings are marked as cached and aged.
public struct ShownSnapshot: Sendable, Hashable {
    /// The readings.
    public var snapshot: SiteSnapshot
    /// Live or from the cache.
    public var origin: SnapshotOrigin

    /// Makes a shown snapshot.
    public init(snapshot: SiteSnapshot, origin: SnapshotOrigin) {
        self.snapshot = snapshot
        self.origin = origin
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
