/// A person's command in a stay and how it settled.
public struct CommandReport: Sendable, Hashable, Codable {
    /// When it was given, Unix ms.
    public var atMs: Int64
    /// The command as the scenario wrote it (`mode idle`).
    public var command: String
    /// The `cmd` frame's op.
    public var op: String
    /// When it settled, Unix ms; absent if the scenario ended first.
    public var settledAtMs: Int64?
    /// How the box settled it (`applied`, `rejected`, `expired`, `superseded`, `unconfirmed`); absent when it failed
    /// before an answer.
    public var state: String?
    /// Why it failed or was refused (the session's error, or the box's error code).
    public var error: String?
    /// True for a command given while the app was not in front (in the background, or launched and not yet in
    /// front): no session is up then, so it fails at once; kept by the stay the app left (or the one about to
    /// begin), so that no command a person gave goes unsaid.
    public var inBackground: Bool?

    /// Makes a record.
    public init(
        atMs: Int64,
        command: String,
        op: String,
        settledAtMs: Int64? = nil,
        state: String? = nil,
        error: String? = nil
    ) {
        self.atMs = atMs
        self.command = command
        self.op = op
        self.settledAtMs = settledAtMs
        self.state = state
        self.error = error
    }
}
