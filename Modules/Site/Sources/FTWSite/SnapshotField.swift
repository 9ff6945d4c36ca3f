/// What one field id means, from the snapshot's dictionary: kept so deltas of bare numbers can be named after a
/// relaunch.
public struct SnapshotField: Sendable, Hashable {
    /// The field's name, such as `grid_w`.
    public var name: String
    /// Its unit; nil when it has none.
    public var unit: String?
    /// The source whose freshness it follows; nil for fields the box computes.
    public var srcId: String?

    /// Makes an entry.
    public init(name: String, unit: String?, srcId: String?) {
        self.name = name
        self.unit = unit
        self.srcId = srcId
    }
}
