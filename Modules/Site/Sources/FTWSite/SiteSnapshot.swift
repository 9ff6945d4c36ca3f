public import FTWBoxProtocol

/// The site's last picture from the live stream: the dictionary, every field, every source, the box's uptime, and
/// when the box's last frame arrived on the wall clock.
public struct SiteSnapshot: Sendable, Hashable {
    /// Box uptime at the last frame.
    public var uptimeMs: Int64
    /// The per-site counter of controllable state.
    public var controlRev: UInt64
    /// What each field id means.
    public var dict: [Int: SnapshotField]
    /// Every field's value, by field id.
    public var fields: [Int: Int64]
    /// Every source's freshness, by source id.
    public var sources: [String: SnapshotSource]
    /// The sources stopping dispatch.
    public var dispatchBlockedBy: [String]
    /// When the last frame that confirmed these values arrived, on the wall clock (Unix ms): the data's age counts
    /// from here.
    public var takenAtMs: Int64

    /// Takes a full snapshot that arrived at `arrivalMs`.
    public init(snap: Snap, arrivalMs: Int64) {
        uptimeMs = snap.uptimeMs
        controlRev = snap.controlRev
        dict = snap.dict.mapValues { SnapshotField(name: $0.name, unit: $0.unit, srcId: $0.srcId) }
        fields = snap.fields
        sources = Self.sources(snap.sources)
        dispatchBlockedBy = snap.dispatchBlockedBy
        takenAtMs = arrivalMs
    }

    /// Applies a delta that arrived at `arrivalMs`: its fields over the old ones, and its source table (which, when
    /// present, is the whole table).
    public mutating func apply(_ delta: Delta, arrivalMs: Int64) {
        fields.merge(delta.fields) { _, new in new }
        if let sources = delta.sources {
            self.sources = Self.sources(sources)
            dispatchBlockedBy = delta.dispatchBlockedBy ?? []
        }
        uptimeMs = delta.uptimeMs
        takenAtMs = arrivalMs
    }

    /// Notes a tick: nothing changed, and the values still hold at `arrivalMs`.
    public mutating func apply(_ tick: Tick, arrivalMs: Int64) {
        uptimeMs = tick.uptimeMs
        takenAtMs = arrivalMs
    }

    private static func sources(_ sources: [String: SourceInfo]) -> [String: SnapshotSource] {
        sources.mapValues {
            SnapshotSource(
                kind: $0.kind,
                name: $0.name,
                lastOkMs: $0.lastOkMs,
                staleAfterMs: $0.staleAfterMs,
                state: $0.state.rawValue
            )
        }
    }
}
