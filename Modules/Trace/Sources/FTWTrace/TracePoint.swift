/// One recorded reading of one field, as the ring holds it.
public struct TracePoint: Sendable, Hashable {
    /// When the box took it, on the wall clock (Unix ms): box uptime placed by the connection's anchor, or the
    /// cloud's send time.
    public var timeMs: Int64
    /// The reading, in the field's wire unit.
    public var value: Int64
    /// False for a point read back from the ring file: the app did not see it live (drawn without glow).
    public var seen: Bool
    /// True when this point started a run: the gap before it was longer than its source's rule, or it was the
    /// first live point after a restore.
    public var startsRun: Bool
    /// The run it belongs to: equal ids are one unbroken line. Stable while the trace lives; fresh after a restore.
    public var run: Int
    /// Where it came from.
    public var source: TraceSource

    /// Makes a point.
    public init(timeMs: Int64, value: Int64, seen: Bool, startsRun: Bool, run: Int, source: TraceSource) {
        self.timeMs = timeMs
        self.value = value
        self.seen = seen
        self.startsRun = startsRun
        self.run = run
        self.source = source
    }
}
