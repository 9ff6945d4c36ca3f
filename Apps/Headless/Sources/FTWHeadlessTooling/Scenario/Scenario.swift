/// A scripted day in the life of the app: its settings and its steps, each with the line it came from.
public struct Scenario: Sendable, Hashable {
    /// One step and where it was written.
    public struct Line: Sendable, Hashable {
        /// The step.
        public var step: ScenarioStep
        /// The 1-based line number in the file.
        public var number: Int
    }

    /// The header's settings.
    public var settings: ScenarioSettings
    /// The steps, in order.
    public var lines: [Line]

    /// The steps alone.
    public var steps: [ScenarioStep] { lines.map(\.step) }
}
