/// The 64 most recent sequence numbers a receiver has accepted, as a bitmap: the transport's replay defence.
///
/// A relay may reorder or repeat messages, so the receiver accepts any sequence number it has not seen yet that is
/// fewer than 64 behind the newest, and refuses the rest. It is its own value so it can be tested and fuzzed apart
/// from the cipher; the transport calls it only for messages that already authenticated.
public struct ReplayWindow: Sendable, Hashable {
    /// How many sequence numbers, counting the newest, the window remembers.
    public static let width: UInt64 = 64

    /// The highest sequence number accepted so far; nil before the first.
    public private(set) var newest: UInt64?
    /// Bit `i` is set when `newest − i` was accepted.
    private var seen: UInt64 = 0

    /// An empty window that accepts any first sequence number.
    public init() {}

    /// Whether `sequence` would be accepted now: newer than anything seen, or inside the window and unseen.
    public func isFresh(_ sequence: UInt64) -> Bool {
        guard let newest, sequence <= newest else { return true }
        let age = newest - sequence
        return age < Self.width && seen & (1 << age) == 0
    }

    /// Records `sequence` if it is fresh.
    ///
    /// - Returns: false, changing nothing, for a duplicate or a number 64 or more behind the newest.
    public mutating func accept(_ sequence: UInt64) -> Bool {
        guard isFresh(sequence) else { return false }
        guard let newest, sequence <= newest else {
            let shift = newest.map { sequence - $0 } ?? Self.width
            seen = (shift < Self.width ? seen << shift : 0) | 1
            self.newest = sequence
            return true
        }
        seen |= 1 << (newest - sequence)
        return true
    }
}
