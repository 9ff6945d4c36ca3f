/// What became of a command (`cmd.result.state`, §2.10).
public struct CommandState: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The read-back shows what was asked.
    public static let applied: CommandState = "applied"

    /// The box refused it; `error` says why.
    public static let rejected: CommandState = "rejected"

    /// It arrived after `notValidAfterMs`.
    public static let expired: CommandState = "expired"

    /// The read-back shows something else.
    public static let superseded: CommandState = "superseded"

    /// Nothing could be read back.
    public static let unconfirmed: CommandState = "unconfirmed"
}
