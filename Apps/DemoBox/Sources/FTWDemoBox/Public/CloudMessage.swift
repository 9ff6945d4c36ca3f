/// One message of the simulated cloud feed: the home's live readings as a cloud service forwards them, on change
/// and as a heartbeat, stamped with the cloud's send time.
public struct CloudMessage: Sendable, Hashable {
    /// When the cloud sent it, on the wall clock (Unix ms): the time a trace stamps its points with.
    public var sentAtMs: Int64
    /// Every field whose source is live, by field id (the same ids as the box's stream).
    public var fields: [Int: Int64]
    /// Set when nothing changed and the message only says the feed is alive.
    public var isHeartbeat: Bool

    /// Makes a message.
    public init(sentAtMs: Int64, fields: [Int: Int64], isHeartbeat: Bool) {
        self.sentAtMs = sentAtMs
        self.fields = fields
        self.isHeartbeat = isHeartbeat
    }
}
