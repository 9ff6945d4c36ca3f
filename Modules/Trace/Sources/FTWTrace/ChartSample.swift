/// What a chart draws for one point: a value at a time, whether it was seen live, and the run it belongs to.
///
/// The run is the one recorded with the point, passed through: a chart draws one line per run and never works
/// runs out again from gaps, because the rule that split them belongs to the source that recorded them, which may
/// not be the source streaming now.
public struct ChartSample: Sendable, Hashable {
    /// When the box took the reading (Unix ms).
    public var timeMs: Int64
    /// The reading, as a chart's axis wants it.
    public var value: Double
    /// False for a restored point (ink with no glow).
    public var seen: Bool
    /// The recorded run: the chart's series.
    public var run: Int
    /// True where the recorded run starts (the oldest point of a ring may sit inside a run that started earlier).
    public var startsRun: Bool
    /// True for a reading of the cloud feed, stamped with the cloud's send time rather than the box's uptime.
    public var fromCloud = false

    /// Makes a sample.
    public init(timeMs: Int64, value: Double, seen: Bool, run: Int, startsRun: Bool) {
        self.timeMs = timeMs
        self.value = value
        self.seen = seen
        self.run = run
        self.startsRun = startsRun
    }
}
