import FTWBus
public import FTWSessionInterface

extension LiveSession {
    /// Sends a command now, on lane 0, never queued behind reads, and returns how it settled.
    ///
    /// The session adds a UUIDv7 `cmdId`, `notValidAfterMs` two minutes past the box's last uptime, and the last
    /// `controlRev` as `expect.rev`. A command is never kept for a later connection: an old instruction arriving as
    /// if new is what `notValidAfterMs` exists to prevent.
    ///
    /// - Returns: The box's `cmd.result`, or `unconfirmed` when it acknowledged and then said nothing for 15 s or
    ///   the carrier dropped after its acknowledgement.
    /// - Throws: `SessionError` with `.carrierLost` when no stream is up or the carrier dropped before the
    ///   acknowledgement, `.timeout` when no `cmd.ack` came within 5 s (E_NO_ACK), `.requestTooLarge` when it does
    ///   not fit a lane 0 frame, `.cancelled` when the caller went away.
    public func command(_ request: CommandRequest) async throws(SessionError) -> CommandOutcome {
        if state.link.isStopped { throw SessionError(.cancelled, "the session has stopped") }
        let id = state.takeWaiterID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                startCommand(request, continuation: continuation, id: id)
            }
        } onCancel: { [inputContinuation] in
            inputContinuation.yield(.cancelWaiter(id))
        }
        return try result.get()
    }

    private func startCommand(
        _ request: CommandRequest,
        continuation: CheckedContinuation<Result<CommandOutcome, SessionError>, Never>,
        id: Int
    ) {
        commandWaiters[id] = continuation
        state.startCommand(request, id: id, cancelled: Task.isCancelled)
        performActions()
        if state.commands[id] != nil { wake() }
    }
}
