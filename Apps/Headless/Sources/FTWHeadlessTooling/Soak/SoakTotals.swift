/// What a soak went through and what it cost: the numbers `ftw-headless soak` prints.
public struct SoakTotals: Sendable, Hashable, Codable {
    /// The seed the scenario was drawn from.
    public var seed: UInt64
    /// Simulated time covered, in ms.
    public var simulatedMs: Int64
    /// Real time it took, in ms.
    public var realMs: Int64
    /// Steps the scenario played.
    public var steps: Int
    /// Request frames the box received, by wire type (`api.req`, `plan.get`, …).
    public var framesByType: [String: Int]
    /// The same frames by the model that sent them (`chargers`, `prefs`, `status`, `plan`, `prices`, `history`).
    public var framesByModel: [String: Int]
    /// Bytes the app's carriers sent (Noise messages, WebSocket framing not included).
    public var bytesSent: Int
    /// Bytes they received.
    public var bytesReceived: Int
    /// Stays in front.
    public var stays: Int
    /// Events and faults survived, by name: launches, kills, glances, backgrounds, views, refreshes, cuts, reboots,
    /// quiet spells, late and early publications, stream returns.
    public var events: [String: Int]
    /// The largest the ring file was sealed, and its bound.
    public var peakRingBytes: Int
    /// The ring file's bound.
    public var ringBound: Int
    /// The largest the tiles file was sealed.
    public var peakTilesBytes: Int
    /// The tiles file's bound.
    public var tilesBound: Int
    /// Memory at the start, the middle and the end (simulated ms since the start in each).
    public var memory: [SoakMemorySample]

    /// Every request frame.
    public var frames: Int { framesByType.values.reduce(0, +) }
}
