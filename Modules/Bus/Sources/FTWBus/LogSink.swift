/// Where log lines go: modules accept a sink in `init` and never choose a backend themselves.
///
/// The apps pick the backend (standard error, a file, nothing); tests pick ``InMemoryLogSink`` and read it back.
public protocol LogSink: Sendable {
    /// Records one line.
    func log(_ entry: LogEntry)
}

extension LogSink {
    /// Records one line in `category` at `atMs`.
    public func log(_ category: String, atMs: Int64, _ message: String) {
        log(LogEntry(category: category, atMs: atMs, message: message))
    }
}
