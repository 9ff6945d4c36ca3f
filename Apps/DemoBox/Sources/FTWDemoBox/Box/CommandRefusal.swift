import FTWBoxProtocol

/// Why the box would not act on a command: the result state (`rejected` or `expired`) and the error it carries.
struct CommandRefusal: Error, Sendable, Hashable {
    var state: CommandState
    var error: ErrorBody

    /// A rejection with `code` and `args`.
    static func rejected(_ code: ErrorCode, _ args: CBORMap = [:]) -> CommandRefusal {
        CommandRefusal(state: .rejected, error: ErrorBody(code: code, args: args))
    }
}
