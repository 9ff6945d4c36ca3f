/// One run of `ftw-launch-baseline`, the C program that reads and opens the same sealed files and does nothing else,
/// timed from the moment its process was started: the floor under the client's first content.
public struct LaunchBaselineTimes: Sendable, Hashable, Codable {
    /// Milliseconds until its `main` ran.
    public var mainMs: Double
    /// Milliseconds until the last sealed file was opened.
    public var contentMs: Double
    /// The processor time it had used (user and kernel) when the last file was opened, in milliseconds.
    public var contentCPUMs: Double
    /// The sealed files it opened.
    public var files: Int
    /// The bytes they held once opened.
    public var plainBytes: Int

    /// Makes a record.
    public init(mainMs: Double, contentMs: Double, contentCPUMs: Double, files: Int, plainBytes: Int) {
        self.mainMs = mainMs
        self.contentMs = contentMs
        self.contentCPUMs = contentCPUMs
        self.files = files
        self.plainBytes = plainBytes
    }
}
