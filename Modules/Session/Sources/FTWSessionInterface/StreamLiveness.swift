/// Whether the box's live stream is live now: its beats arrive within its gap rule (3.5 beats), or they stopped.
///
/// A stream is live from its first beat (a `snap`, `delta` or `tick`), not from `hello_ok`: a box that answers hello
/// and sends nothing is not live. It is stale from the moment the gap rule passes without a beat, and live again on
/// the next beat. The session publishes each change (``SessionEvent/liveness(_:)``) with its time and cause.
public enum StreamLiveness: Sendable, Hashable {
    /// Beats arrive; the first of this live stretch arrived at `sinceMs` (wall clock, Unix ms).
    case live(sinceMs: Int64)
    /// No beat within the gap rule: stale since `sinceMs` (the last beat plus the rule), the last beat at
    /// `lastBeatMs` (nil when none came after `hello_ok`).
    case stale(sinceMs: Int64, lastBeatMs: Int64?)

    /// Whether beats arrive.
    public var isLive: Bool {
        if case .live = self { true } else { false }
    }
}
