/// One source's freshness as the snapshot last saw it.
public struct SnapshotSource: Sendable, Hashable {
    /// What the source is (the shipping box says `driver`).
    public var kind: String
    /// The driver's name.
    public var name: String
    /// Box uptime at its last good reading.
    public var lastOkMs: Int64
    /// How old a reading may be before it counts as lagging.
    public var staleAfterMs: Int64
    /// Where it is on the freshness ladder (`live`, `lagging`, `stale`, `down`, `never`).
    public var state: String

    /// Makes an entry.
    public init(kind: String, name: String, lastOkMs: Int64, staleAfterMs: Int64, state: String) {
        self.kind = kind
        self.name = name
        self.lastOkMs = lastOkMs
        self.staleAfterMs = staleAfterMs
        self.state = state
    }
}
