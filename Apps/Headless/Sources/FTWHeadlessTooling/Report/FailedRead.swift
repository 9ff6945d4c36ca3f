/// A read that failed while someone was looking: what the screen would show with no word unless the report says it.
public struct FailedRead: Sendable, Hashable, Codable {
    /// When it failed, Unix ms.
    public var atMs: Int64
    /// The model whose ask failed: `chargers`, `prefs`, `plan`, `prices`, `status` or `history`.
    public var what: String
    /// The name it was asked under.
    public var name: String
    /// Why, as the session or the model said it (`timeout: the box said nothing on api.req #7 in time`).
    public var why: String
    /// Whether an older answer is still on screen (else the model shows nothing for it).
    public var olderAnswerShown: Bool

    /// Makes a record.
    public init(atMs: Int64, what: String, name: String, why: String, olderAnswerShown: Bool) {
        self.atMs = atMs
        self.what = what
        self.name = name
        self.why = why
        self.olderAnswerShown = olderAnswerShown
    }
}
