/// The frame header's flag bits.
///
/// Unknown bits are kept as they arrive, so a frame from a newer peer reads back unchanged.
public struct FrameFlags: OptionSet, Sendable, Hashable {
    /// The raw flag byte.
    public var rawValue: UInt8

    /// Makes flags from the raw byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// TRUNC (0x02): the box dropped part of a delta to keep it in its bucket; the rest follows on a later pulse.
    public static let truncated = FrameFlags(rawValue: 0x02)
}
