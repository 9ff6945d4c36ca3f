import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWSessionInterface

extension SessionState {
    /// Command caller `id` asks `request` (`cancelled` when the caller already went away): it goes out now on lane
    /// 0 or fails at once, since a command is never kept for a later connection.
    mutating func startCommand(_ request: CommandRequest, id: Int, cancelled: Bool) {
        guard !cancelled, link.isStreaming else {
            let error = halt ?? SessionError(.carrierLost, "no session is up: a command is never kept for later")
            actions.append(.settle(command: id, .failure(error)))
            return
        }
        let cmdId = CommandID.make(nowMs: environment.nowMs, random: environment.random)
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
            actions.append(.settle(command: id, .failure(error)))
            return
        }
        recordAsk(type: Command.wireType, id: 0, detail: request.op)
        commands[id] = PendingCommand(cmdId: cmdId)
        arm(.commandAck(cmdId), after: configuration.timing.commandAck)
    }

    mutating func commandAcknowledged(_ ack: CommandAck) {
        guard let id = commandWaiter(cmdId: ack.cmdId), commands[id]?.acked == false else { return }
        commands[id]?.acked = true
        cancel(.commandAck(ack.cmdId))
        arm(.commandResult(ack.cmdId), after: configuration.timing.commandResult)
    }

    mutating func commandSettled(_ result: CommandResult) {
        guard let id = commandWaiter(cmdId: result.cmdId) else { return }
        let outcome = CommandOutcome(state: result.state.rawValue, observed: result.observed, error: result.error)
        settleCommand(id, .success(outcome))
    }

    /// No `cmd.ack` in time: the box may never have seen it (E_NO_ACK).
    mutating func commandAckMissed(_ cmdId: String) {
        guard let id = commandWaiter(cmdId: cmdId) else { return }
        settleCommand(id, .failure(SessionError(.timeout, "E_NO_ACK: the box did not acknowledge \(cmdId)")))
    }

    /// Acknowledged, but no `cmd.result` in time: whether it took is unknown.
    mutating func commandResultMissed(_ cmdId: String) {
        guard let id = commandWaiter(cmdId: cmdId) else { return }
        settleCommand(id, .success(CommandOutcome(state: CommandState.unconfirmed.rawValue)))
    }

    /// The Noise session ended: an acknowledged command is unconfirmed, any other failed with `error`.
    mutating func settleCommands(with error: SessionError) {
        for (id, waiter) in commands {
            settleCommand(
                id,
                waiter.acked ? .success(CommandOutcome(state: CommandState.unconfirmed.rawValue)) : .failure(error)
            )
        }
    }

    mutating func settleCommand(_ id: Int, _ result: Result<CommandOutcome, SessionError>) {
        guard let command = commands.removeValue(forKey: id) else { return }
        cancel(.commandAck(command.cmdId))
        cancel(.commandResult(command.cmdId))
        actions.append(.settle(command: id, result))
    }

    private func commandWaiter(cmdId: String) -> Int? {
        commands.first { $0.value.cmdId == cmdId }?.key
    }
}
