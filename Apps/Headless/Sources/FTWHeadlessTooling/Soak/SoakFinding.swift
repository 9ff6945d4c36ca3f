/// One broken invariant the soak found: which rule, when in simulated time, in which stay, and what happened, in
/// a sentence a person can act on.
public struct SoakFinding: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The invariants a soak checks throughout (docs/soak.md says how each is checked).
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        /// An answer was recorded under a name it was not asked under.
        case recordedUnderAnotherName = "name"
        /// The box received a request no event explains: a timer asked.
        case timerDriven = "timer"
        /// A stay cost more request frames than the rules allow.
        case overStayBound = "stay-bound"
        /// The client's asks log and the box's list disagree.
        case asksLogMismatch = "asks-log"
        /// A sealed file grew past its bound.
        case fileTooLarge = "file-size"
        /// Memory grew between the second hour and the end.
        case memoryGrew = "memory"
    }

    /// The rule broken.
    public var rule: Rule
    /// When, in simulated ms since the soak began.
    public var atMs: Int64
    /// The stay it happened in (1 for the first), if any.
    public var stay: Int?
    /// What happened.
    public var message: String

    /// Makes a finding.
    public init(_ rule: Rule, atMs: Int64, stay: Int?, _ message: String) {
        self.rule = rule
        self.atMs = atMs
        self.stay = stay
        self.message = message
    }

    /// `[timer] at 3h12m05s, stay 14: …`.
    public var description: String {
        "[\(rule.rawValue)] at \(Self.elapsed(atMs))\(stay.map { ", stay \($0)" } ?? ""): \(message)"
    }

    /// Simulated time since the start as `3h12m05.250s`.
    static func elapsed(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let fraction = milliseconds % 1000
        let clock = "\(seconds / 3600)h\(pad(seconds / 60 % 60))m\(pad(seconds % 60))"
        return fraction == 0 ? clock + "s" : clock + ".\(String(1000 + fraction).dropFirst())s"
    }

    private static func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
