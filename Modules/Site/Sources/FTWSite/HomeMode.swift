/// One entry of the box's mode catalogue (`hello_ok.modes`), kept so the mode field can be named before connecting.
public struct HomeMode: Sendable, Hashable {
    /// The mode's key, such as `self_consumption`.
    public var key: String
    /// The box's label.
    public var label: String
    /// The box's longer explanation.
    public var tooltip: String
    /// Where the app places it: `primary`, `advanced` or `hidden`.
    public var tier: String

    /// Makes an entry.
    public init(key: String, label: String, tooltip: String, tier: String) {
        self.key = key
        self.label = label
        self.tooltip = tooltip
        self.tier = tier
    }
}
