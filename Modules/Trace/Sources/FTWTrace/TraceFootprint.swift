/// How much memory a trace's rings have reserved: fixed once a field's ring exists, whatever runs through it.
public struct TraceFootprint: Sendable, Hashable {
    /// Rings (fields) kept.
    public var rings: Int
    /// Point slots reserved over all rings.
    public var slots: Int
    /// Bytes those slots take.
    public var bytes: Int

    /// Makes a footprint.
    public init(rings: Int, slots: Int, bytes: Int) {
        self.rings = rings
        self.slots = slots
        self.bytes = bytes
    }
}
