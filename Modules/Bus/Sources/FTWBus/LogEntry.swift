/// One line of the client's log: a category (such as `asks`), a time and a message.
public struct LogEntry: Sendable, Hashable {
    /// What the line is about; `asks` is the category of every request frame the session sends.
    public var category: String
    /// Wall-clock time of the line, in Unix ms.
    public var atMs: Int64
    /// The line itself.
    public var message: String

    /// Makes a log line.
    public init(category: String, atMs: Int64, message: String) {
        self.category = category
        self.atMs = atMs
        self.message = message
    }
}
