/// How many events a ``BusStream`` keeps for a consumer that has not read them yet, and which ones go when it is
/// full.
///
/// Every queue of the bus is bounded: a consumer that stops reading (stuck on an `await`, or never iterating the
/// stream it holds) costs at most `limit` events of memory, whatever the publisher does. Each event dropped is
/// counted on the stream (``BusStream/dropped``), so a consumer that fell behind can tell.
public struct BusBuffering: Sendable, Hashable {
    /// Which events a full queue lets go.
    public enum WhenFull: Sendable, Hashable {
        /// The oldest queued event goes and the new one is kept: for a consumer that wants the latest state (live
        /// frames, connection changes).
        case dropOldest
        /// The new event is not queued: for a consumer that must see the beginning of a run in order.
        case dropNewest
    }

    /// The most events queued at once; at least 1.
    public let limit: Int
    /// What a full queue does with the next event.
    public let whenFull: WhenFull

    /// A bound of `limit` events (1 at least) and its policy.
    public init(limit: Int, whenFull: WhenFull) {
        self.limit = max(1, limit)
        self.whenFull = whenFull
    }

    /// What a subscription and a service's feed get unless they ask otherwise: 1,024 events, the oldest dropped.
    ///
    /// A live frame comes once a second and every subscriber of the client reads within the same second, so the
    /// bound is a quarter of an hour of frames that nobody read: reached only by a consumer that stopped.
    public static let standard = BusBuffering(limit: 1_024, whenFull: .dropOldest)
}
