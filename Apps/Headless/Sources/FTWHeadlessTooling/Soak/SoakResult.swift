/// What a soak found: its totals and every broken invariant (none, when the client keeps its rules).
public struct SoakResult: Sendable, Hashable, Codable {
    /// What it went through and cost.
    public var totals: SoakTotals
    /// Every broken invariant, in order of the rules.
    public var findings: [SoakFinding]
    /// Every step, request frame (as sent and as received) and settled ask, in time order, when the soak kept them.
    public var timeline: [String]?
}
