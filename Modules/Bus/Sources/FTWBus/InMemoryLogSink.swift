import Synchronization

/// A log sink that keeps every line, for tests and for the headless app's per-stay report.
public final class InMemoryLogSink: LogSink {
    private let lines = Mutex<[LogEntry]>([])

    /// Makes an empty sink.
    public init() {}

    /// Keeps `entry`.
    public func log(_ entry: LogEntry) {
        lines.withLock { $0.append(entry) }
    }

    /// Every line kept so far, in order; only those of `category` when one is given.
    public func entries(category: String? = nil) -> [LogEntry] {
        lines.withLock { lines in category.map { category in lines.filter { $0.category == category } } ?? lines }
    }
}
