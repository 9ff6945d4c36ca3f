/// What the app held at one moment of a soak: the process's resident memory and the models' own counts.
public struct SoakMemorySample: Sendable, Hashable, Codable {
    /// Simulated ms since the soak began.
    public var atMs: Int64
    /// Resident set size of this process, in bytes (0 where /proc is not there).
    public var residentBytes: Int
    /// Bytes the live trace's rings have reserved.
    public var traceBytes: Int
    /// Live-trace points held, over every field.
    public var tracePoints: Int
    /// History steps with a value, over every series.
    public var historySteps: Int
}
