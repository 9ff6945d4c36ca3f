public import FTWBoxProtocol

/// A command a person gives (change the mode, hold a charger): the session adds the idempotency key, the validity
/// limit in box uptime and the expected revision.
public struct CommandRequest: Sendable, Hashable {
    /// The operation, such as `site.mode.set`.
    public var op: String
    /// Its arguments.
    public var args: CBORMap
    /// Conditions the box checks against fresh readings before it acts.
    public var guards: [Guard]

    /// Makes a command.
    public init(op: String, args: CBORMap, guards: [Guard] = []) {
        self.op = op
        self.args = args
        self.guards = guards
    }
}

/// How a command settled.
public struct CommandOutcome: Sendable, Hashable {
    /// `applied`, `rejected`, `expired`, `superseded` or `unconfirmed`.
    public var state: String
    /// What the box read back, when it could.
    public var observed: Observed?
    /// Why it was refused, when it was.
    public var error: ErrorBody?

    /// Makes an outcome.
    public init(state: String, observed: Observed? = nil, error: ErrorBody? = nil) {
        self.state = state
        self.observed = observed
        self.error = error
    }
}
