import FTWClockSeam
import FTWSessionInterface

/// How much a trace keeps and how it splits runs: the window, the sources' cadences and gap rules, how often it
/// writes its file.
///
/// The gap rules are derived, not set: the box stream's is 3.5 of its beats (so one or two lost frames never break
/// a line, a stalled stream does), the cloud feed's is twice its heartbeat plus a margin (the cloud sends on change,
/// so a quiet home is only known to be alive by its heartbeat).
public struct TraceConfiguration: Sendable, Hashable {
    /// How far back a ring reaches, counted from its newest point; also what the ring file keeps.
    public var window: Duration
    /// The box stream's beat at the session's rate: 1 s at 1 Hz, 5 s at 0.2 Hz.
    public var beatInterval: Duration
    /// How often the cloud feed sends when nothing changed.
    public var cloudHeartbeat: Duration
    /// What the cloud's gap rule allows on top of two heartbeats, for the cloud's own delays.
    public var cloudMargin: Duration
    /// How often the ring file is written while live points come in.
    public var persistInterval: Duration
    /// Points a ring holds at most: the window at 1 Hz plus room for jitter and bursts of cloud readings.
    ///
    /// A source faster than that (a cloud sending many changes a second) makes the ring span less than the window;
    /// memory never grows past it.
    public var ringCapacity: Int
    /// Rings a trace keeps at most, so a box that sends many field ids cannot grow memory without bound.
    public var maxFields: Int

    /// Makes a configuration; the defaults are the phone's: five minutes, 1 Hz, a 30 s heartbeat, a write every 15 s.
    public init(
        window: Duration = .seconds(300),
        beatInterval: Duration = .seconds(1),
        cloudHeartbeat: Duration = .seconds(30),
        cloudMargin: Duration = .seconds(5),
        persistInterval: Duration = .seconds(15),
        ringCapacity: Int = 360,
        maxFields: Int = 32
    ) {
        self.window = window
        self.beatInterval = beatInterval
        self.cloudHeartbeat = cloudHeartbeat
        self.cloudMargin = cloudMargin
        self.persistInterval = persistInterval
        self.ringCapacity = max(1, ringCapacity)
        self.maxFields = max(1, maxFields)
    }

    /// The longest gap that still joins two box points: 3.5 beats (3.5 s at 1 Hz, 17.5 s at 0.2 Hz).
    public var boxGapRule: Duration {
        .milliseconds(BeatWatch.boxGapMs(beatMs: beatInterval.wholeMilliseconds))
    }

    /// The longest gap that still joins two cloud points: two heartbeats plus the margin (65 s by default).
    public var cloudGapRule: Duration { cloudHeartbeat * 2 + cloudMargin }

    /// The gap rule of `source`.
    public func gapRule(for source: TraceSource) -> Duration {
        switch source {
        case .box: boxGapRule
        case .cloud: cloudGapRule
        }
    }
}
