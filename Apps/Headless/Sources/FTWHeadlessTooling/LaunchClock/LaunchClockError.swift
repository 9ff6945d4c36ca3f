/// Why the launch clock could not measure: a setup that failed, a child that did not report, a box that was silent.
public struct LaunchClockError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let description: String

    /// Makes an error saying `description`.
    public init(_ description: String) { self.description = description }
}
