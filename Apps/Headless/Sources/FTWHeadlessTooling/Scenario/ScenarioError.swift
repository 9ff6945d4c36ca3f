/// Why a scenario file could not be read: the line and what is wrong on it.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong, in a sentence.
    public var message: String

    /// Makes an error.
    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`, the form a person reads in a terminal.
    public var description: String { "line \(line): \(message)" }
}
