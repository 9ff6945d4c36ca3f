import BoxProtocol
import Bus
import ClockSeam
public import SessionInterface

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
        if case .stopped = runState { throw SessionError(.cancelled, "the session has stopped") }
        let id = takeWaiterID()
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
        guard !Task.isCancelled, connection?.stage == .streaming else {
            let error = halt ?? SessionError(.carrierLost, "no session is up: a command is never kept for later")
            continuation.resume(returning: .failure(error))
            return
        }
        let cmdId = CommandID.make(nowMs: wallClock.nowMs, random: random)
        let validity = configuration.timing.commandValidity.wholeMilliseconds
        let (notValidAfterMs, overflow) = lastUptimeMs.addingReportingOverflow(validity)
        let command = Command(
            cmdId: cmdId,
            op: CommandOp(rawValue: request.op),
            args: request.args,
            notValidAfterMs: overflow ? .max : notValidAfterMs,
            expect: Expect(rev: controlRev, guards: request.guards)
        )
        do {
            try transmit(.cmd(command), id: nil)
        } catch {
            continuation.resume(returning: .failure(error))
            return
        }
        recordAsk(type: Command.wireType, id: 0, detail: request.op)
        commandWaiters[id] = CommandWaiter(continuation: continuation, cmdId: cmdId)
        arm(.commandAck(cmdId), after: configuration.timing.commandAck)
        wake()
    }

    func commandAcknowledged(_ ack: CommandAck) {
        guard let id = commandWaiter(cmdId: ack.cmdId), commandWaiters[id]?.acked == false else { return }
        commandWaiters[id]?.acked = true
        cancel(.commandAck(ack.cmdId))
        arm(.commandResult(ack.cmdId), after: configuration.timing.commandResult)
    }

    func commandSettled(_ result: CommandResult) {
        guard let id = commandWaiter(cmdId: result.cmdId) else { return }
        let outcome = CommandOutcome(state: result.state.rawValue, observed: result.observed, error: result.error)
        settleCommand(id, .success(outcome))
    }

    /// No `cmd.ack` in time: the box may never have seen it (E_NO_ACK).
    func commandAckMissed(_ cmdId: String) {
        guard let id = commandWaiter(cmdId: cmdId) else { return }
        settleCommand(id, .failure(SessionError(.timeout, "E_NO_ACK: the box did not acknowledge \(cmdId)")))
    }

    /// Acknowledged, but no `cmd.result` in time: whether it took is unknown.
    func commandResultMissed(_ cmdId: String) {
        guard let id = commandWaiter(cmdId: cmdId) else { return }
        settleCommand(id, .success(CommandOutcome(state: CommandState.unconfirmed.rawValue)))
    }

    /// The Noise session ended: an acknowledged command is unconfirmed, any other failed with `error`.
    func settleCommands(with error: SessionError) {
        for (id, waiter) in commandWaiters {
            settleCommand(
                id,
                waiter.acked ? .success(CommandOutcome(state: CommandState.unconfirmed.rawValue)) : .failure(error)
            )
        }
    }

    func settleCommand(_ id: Int, _ result: Result<CommandOutcome, SessionError>) {
        guard let waiter = commandWaiters.removeValue(forKey: id) else { return }
        cancel(.commandAck(waiter.cmdId))
        cancel(.commandResult(waiter.cmdId))
        waiter.continuation.resume(returning: result)
    }

    private func commandWaiter(cmdId: String) -> Int? {
        commandWaiters.first { $0.value.cmdId == cmdId }?.key
    }
}
