/// Where the snapshot on screen came from: the live stream, or the sealed file of an earlier run.
public enum SnapshotOrigin: Sendable, Hashable {
    /// Built from this run's stream, on connection `connection`.
    case live(connection: Int)
    /// Read back from `snapshot-<site>`, sealed at `savedAtMs` (wall clock): drawn as from the cache, never as live.
    case cache(savedAtMs: Int64)
}
