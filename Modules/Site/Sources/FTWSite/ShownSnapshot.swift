public import FTWClockSeam

/// The snapshot the Now screen draws, with where it came from, so restored readings are marked as cached and aged.
public struct ShownSnapshot: Sendable, Hashable {
    /// The readings.
    public var snapshot: SiteSnapshot
    /// Live or from the cache.
    public var origin: SnapshotOrigin
    /// For live readings, when this connection's first snapshot arrived (wall clock, Unix ms): what a status line
    /// says they are live since; nil for readings from the cache.
    public var liveSinceMs: Int64?
    /// For live readings, the connection's smallest clock gap (arrival wall time minus box uptime, cache.md §4): what
    /// places the box's uptime on the wall clock. Nil for readings from the cache, placed by their last frame's gap.
    public var clockGapMs: Int64?

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

    /// When field `id`'s reading was true and what that rests on.
    ///
    /// A field the box holds itself (the mode), or whose source the box's table says is live, is as of the last frame
    /// that confirmed it: the box resends its table whenever a source's state changes and never for `lastOkMs` alone
    /// (protocol.md §2.5), so its silence says the source still answers. A field whose source is not live is as old
    /// as the source's last good reading (`lastOkMs`). Live, the box's uptime is placed on the wall clock by the
    /// connection's smallest clock gap (basis `AsOf.Basis.boxUptime`); from the cache, by the gap of the last frame
    /// before the seal (`AsOf.Basis.sealedFile`). A source that has not answered since the box started (`lastOkMs`
    /// 0), or whose `lastOkMs` lies ahead of the frame's uptime (another boot's stamp), is unknown, never "just now".
    public func asOf(field id: Int) -> AsOf {
        guard snapshot.fields[id] != nil else { return .unknown }
        let basis: AsOf.Basis = isLive ? .boxUptime : .sealedFile
        let gapMs = clockGapMs ?? (snapshot.takenAtMs - snapshot.uptimeMs)
        var uptimeMs = snapshot.uptimeMs
        if let sourceID = snapshot.dict[id]?.srcId {
            guard let source = snapshot.sources[sourceID], source.lastOkMs > 0,
                source.lastOkMs <= snapshot.uptimeMs
            else { return .unknown }
            if source.state != "live" { uptimeMs = source.lastOkMs }
        }
        return AsOf(moment: uptimeMs + gapMs, basis: basis)
    }

    /// How old the readings are at `nowMs`: since the box's last frame that confirmed them.
    public func ageMs(nowMs: Int64) -> Int64 {
        max(0, nowMs - snapshot.takenAtMs)
    }
}
