public import FTWSessionInterface

/// Where a command's outcome lands, for a test to read after the simulated span.
public actor Outcome {
    /// Makes an empty record.
    public init() {}

    /// The outcome, once the command settled.
    public private(set) var value: Result<CommandOutcome, SessionError>?

    /// Keeps the outcome.
    public func set(_ value: Result<CommandOutcome, SessionError>) {
        self.value = value
    }
}
