public import FTWClient

/// What a scenario did, stay by stay: the document `--json` prints (see docs/json-output.md).
public struct ScenarioReport: Sendable, Hashable, Codable {
    /// The scenario's name (its file name without the extension).
    public var name: String
    /// The asking policy it ran with: `age-keyed` or `every-return`.
    public var policy: String
    /// Every stay in order.
    public var stays: [StayReport]
    /// Problems a person must see (a mismatch between the box's list and the asks log, a step that failed).
    public var errors: [String]
    /// What the app held when the scenario ended (nil if it was not running): nothing a fault lost.
    public var heldAtEnd: DrawnFromFiles?
    /// Time the scenario covered on its clock, in ms: simulated, or the wall clock's with `--real-time`.
    public var simulatedMs: Int64
    /// Real time it took, in ms.
    public var realMs: Int64
    /// What a person must know to read it right (a knob not turned; requests from the asks log, not the box's).
    public var notes: [String] = []
    /// One line for each sealed file that was dropped (proven bad), could not be read or written, or whose key had to
    /// be tightened: what a person must know when a model starts empty or a write did not happen.
    public var sealedFiles: [String] = []
    /// Whether it ran on the wall clock (`--real-time`) rather than on a simulated one.
    public var onWallClock = false

    /// Request frames per stay, in order: the row the seed's table compares.
    public var requestsPerStay: [Int] { stays.map(\.total) }

    /// Request frames over every stay.
    public var totalRequests: Int { stays.reduce(0) { $0 + $1.total } }
}
