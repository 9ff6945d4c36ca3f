/// A history store the box keeps (registry `resolutions`, §4.1); the wire `res` of queries and chunks.
public enum HistoryResolution: String, Sendable, Hashable, CaseIterable {
    /// Five-minute buckets, kept 30 days, in 12-hour tiles of 144 points.
    case fiveMinutes = "5m"
    /// One-hour buckets, kept 730 days, in 7-day tiles of 168 points.
    case hour = "1h"

    /// Fine to coarse: the order the box moves along when a window does not fit.
    public static let fineToCoarse: [HistoryResolution] = [.fiveMinutes, .hour]

    private static let dayMs: Int64 = 86_400_000

    /// The width of one stored bucket.
    public var stepMs: Int64 {
        switch self {
        case .fiveMinutes: 300_000
        case .hour: 3_600_000
        }
    }

    /// How much time one tile covers; tiles start at multiples of it since the Unix epoch.
    public var tileSpanMs: Int64 {
        switch self {
        case .fiveMinutes: 43_200_000
        case .hour: 604_800_000
        }
    }

    /// Stored buckets in one tile: 144 or 168.
    public var pointsPerTile: Int { Int(tileSpanMs / stepMs) }

    /// How far back the box serves this resolution.
    public var retentionDays: Int {
        switch self {
        case .fiveMinutes: 30
        case .hour: 730
        }
    }

    /// ``retentionDays`` in milliseconds.
    public var retentionMs: Int64 { Int64(retentionDays) * Self.dayMs }

    /// The table the box reads this resolution from.
    public var store: String {
        switch self {
        case .fiveMinutes: "energy_ledger"
        case .hour: "hourly_rollup"
        }
    }
}
