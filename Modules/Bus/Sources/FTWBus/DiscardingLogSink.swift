/// A log sink that keeps nothing: the default an app picks when nobody reads the log.
public struct DiscardingLogSink: LogSink {
    /// Makes the sink.
    public init() {}

    /// Drops `entry`.
    public func log(_ entry: LogEntry) {}
}
