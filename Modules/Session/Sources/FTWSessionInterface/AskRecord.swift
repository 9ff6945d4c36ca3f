/// One request frame the session sent: a line of the asks log.
///
/// The log is how the project keeps its promise to the box: every request frame is counted per stay in front, and
/// the demo box's own list of what it received must agree with it.
public struct AskRecord: Sendable, Hashable {
    /// The frame's wire type (`api.req`, `plan.get`, `price.get`, `hist.query`, `cmd`).
    public var type: String
    /// The request id (0 for a `cmd`, which travels without one).
    public var id: UInt32
    /// When it was sent, on the wall clock (Unix ms).
    public var atMs: Int64
    /// Which stay in front it belongs to (1 for the first), as ``Stays`` counts them.
    public var stay: Int
    /// What it asked, for a person reading the log (`GET /api/loadpoints`, `plan`, a history window…).
    public var detail: String

    /// Makes a record.
    public init(type: String, id: UInt32, atMs: Int64, stay: Int, detail: String) {
        self.type = type
        self.id = id
        self.atMs = atMs
        self.stay = stay
        self.detail = detail
    }
}
