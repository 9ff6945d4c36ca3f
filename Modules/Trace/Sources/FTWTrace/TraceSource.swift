/// Where a live point came from: each source has its own stamping and its own gap rule.
public enum TraceSource: Sendable, Hashable, CaseIterable {
    /// The box's own stream (over the relay or a local carrier), stamped by box uptime.
    case box
    /// The cloud feed, stamped with the cloud's send time.
    case cloud
}
