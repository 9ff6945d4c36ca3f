/// How fresh a source's readings are (registry `source_states`), the ladder of §3.2.
public struct SourceState: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The last good reading is within `staleAfterMs`.
    public static let live: SourceState = "live"

    /// Within twice `staleAfterMs`.
    public static let lagging: SourceState = "lagging"

    /// Within six times `staleAfterMs`.
    public static let stale: SourceState = "stale"

    /// Older than that, or the driver reports the device offline.
    public static let down: SourceState = "down"

    /// The device has never answered (or has no staleness limit).
    public static let never: SourceState = "never"

    /// Every source state in the registry, in its order.
    public static let all: [SourceState] = [.live, .lagging, .stale, .down, .never]
}
