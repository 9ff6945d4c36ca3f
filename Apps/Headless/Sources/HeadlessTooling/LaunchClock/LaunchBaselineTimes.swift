/// One run of `ftw-launch-baseline`, the C program that reads and opens the same sealed files and does nothing else,
/// timed from the moment its process was started: the floor under the client's first content.
public struct LaunchBaselineTimes: Sendable, Hashable, Codable {
    /// Milliseconds until its `main` ran.
    public var mainMs: Double
    /// Milliseconds until the last sealed file was opened.
    public var contentMs: Double
    /// The sealed files it opened.
    public var files: Int
    /// The bytes they held once opened.
    public var plainBytes: Int

    /// Makes a record.
    public init(mainMs: Double, contentMs: Double, files: Int, plainBytes: Int) {
        self.mainMs = mainMs
        self.contentMs = contentMs
        self.files = files
        self.plainBytes = plainBytes
    }
}
