/// What a node's chart draws for one field at one moment: the field with its unit, the samples in their recorded
/// runs, and the time the app missed. A value, so an observer compares it with the last one it drew.
public struct FieldTrace: Sendable, Hashable {
    /// The field, with its name and unit.
    public var field: TraceField
    /// The samples, oldest first, each with its recorded run.
    public var samples: [ChartSample]
    /// The time the app missed; nil when nothing was read back from the ring file.
    public var missed: MissedTime?

    /// Makes a trace value.
    public init(field: TraceField, samples: [ChartSample], missed: MissedTime?) {
        self.field = field
        self.samples = samples
        self.missed = missed
    }
}

extension FieldTrace: CustomStringConvertible {
    /// One line: the field, how many samples in how many runs, and the gap, not every sample.
    public var description: String {
        let runs = Set(samples.map(\.run)).count
        let gap = missed.map { gap in
            gap.untilMs.map { " missed \($0 - gap.fromMs) ms" } ?? " missing since \(gap.fromMs)"
        }
        return "\(field): \(samples.count) samples in \(runs) runs\(gap ?? "")"
    }
}
