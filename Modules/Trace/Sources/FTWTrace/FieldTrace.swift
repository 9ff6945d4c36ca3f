public import FTWClockSeam
public import FTWSessionInterface

/// What a node's chart draws for one field at one moment: the field with its unit, the samples in their recorded
/// runs, and the time the app missed. A value, so an observer compares it with the last one it drew.
public struct FieldTrace: Sendable, Hashable {
    /// The field, with its name and unit.
    public var field: TraceField
    /// The samples, oldest first, each with its recorded run.
    public var samples: [ChartSample]
    /// The time the app missed; nil when nothing was read back from the ring file.
    public var missed: MissedTime?
    /// Whether the cloud feed, whose readings are the samples marked ``ChartSample/fromCloud``, is live now or
    /// stale (its gap rule passed after its last message); nil before its first message.
    public var cloudLiveness: StreamLiveness?

    /// When run `run` was last true: its newest sample's stamp, and what that rests on (the box's uptime placed by
    /// the connection's smallest clock gap, the cloud's send time, or the ring file's moment for a restored point);
    /// unknown for a run the trace does not hold.
    public func asOf(run: Int) -> AsOf {
        guard let newest = samples.last(where: { $0.run == run }) else { return .unknown }
        let basis: AsOf.Basis = !newest.seen ? .sealedFile : newest.fromCloud ? .cloudSendTime : .boxUptime
        return AsOf(moment: newest.timeMs, basis: basis)
    }

    /// Makes a trace value.
    public init(field: TraceField, samples: [ChartSample], missed: MissedTime?) {
        self.field = field
        self.samples = samples
        self.missed = missed
    }
}

extension FieldTrace: CustomStringConvertible {
    /// One line: the field, how many samples in how many runs, as of when, and the gap, not every sample; instants
    /// in UTC, as every text of the client prints them.
    public var description: String {
        let runs = Set(samples.map(\.run)).count
        let newest = samples.last.map { ", as of \(asOf(run: $0.run))" } ?? ""
        let gap = missed.map { gap in
            gap.untilMs.map { " missed \($0 - gap.fromMs) ms" } ?? " missing since \(AsOf.utc(gap.fromMs))"
        }
        return "\(field): \(samples.count) samples in \(runs) runs\(newest)\(gap ?? "")"
    }

}
