/// Why a history range cannot be served (`hist.end.gaps[].reason`, §4.4).
public struct GapReason: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The box holds nothing for the range.
    public static let noData: GapReason = "no_data"

    /// The range is older than the resolution's retention; the only reason the box sends.
    public static let evicted: GapReason = "evicted"

    /// The box was not running.
    public static let boxDown: GapReason = "box_down"
}
