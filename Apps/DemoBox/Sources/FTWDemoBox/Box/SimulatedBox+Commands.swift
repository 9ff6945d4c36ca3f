import FTWBoxProtocol
import FTWClockSeam

extension SimulatedBox {
    /// How long a command's lease lasts, in box uptime.
    static let leaseMs: Int64 = 900_000

    /// `cmd` → `cmd.ack` and `cmd.result` (or a result alone when refused), then a pushed `plan` when applied.
    ///
    /// Checked in the box's order (§2.10): a missing `cmdId`, a repeat (replayed, never acted on twice), expiry,
    /// the op, the grant, the scope, `expect.rev`, blocked dispatch, the guards, then the arguments.
    func onCommand(_ envelope: Envelope, session number: Int) {
        let defaults: CBORMap = [
            "cmdId": "", "op": "", "args": .map([:]), "notValidAfterMs": 0, "expect": ["rev": 0, "guards": []],
        ]
        guard let body = Self.body(envelope.body, defaults: defaults), let command = try? Command(body: body),
            let index = index(of: number)
        else { return }
        guard !command.cmdId.isEmpty else {
            return sendError(
                .unknownOp,
                ["t": .text(Command.wireType), "missing": "cmdId"],
                id: envelope.id,
                to: number
            )
        }
        let uptimeMs = uptime.nowMs
        if let answer = sessions[index].commands.answer(cmdId: command.cmdId, uptimeMs: uptimeMs) {
            if let ack = answer.ack { send(.cmdAck(ack), id: nil, to: number) }
            return send(.cmdResult(answer.result), id: nil, to: number)
        }
        let device = enrolment.device(appKey: sessions[index].appKey)
        switch check(command, role: device.map { Role(rawValue: $0.role) }, uptimeMs: uptimeMs) {
        case .failure(let refusal):
            let result = CommandResult(cmdId: command.cmdId, state: refusal.state, error: refusal.error)
            sessions[index].commands.record(.init(result: result, atUptimeMs: uptimeMs), cmdId: command.cmdId)
            send(.cmdResult(result), id: nil, to: number)
            if device == nil { terminateRevoked(session: number) }
        case .success(let action):
            run(action, command: command, session: number, uptimeMs: uptimeMs)
        }
    }

    /// Acknowledges, acts, reads back, reports, and pushes the new plan when the box now holds what was asked.
    private func run(_ action: CommandAction, command: Command, session number: Int, uptimeMs: Int64) {
        leaseCount += 1
        let ack = CommandAck(cmdId: command.cmdId, leaseId: "lease-\(leaseCount)", expiresAtMs: uptimeMs + Self.leaseMs)
        send(.cmdAck(ack), id: nil, to: number)
        apply(action)
        controlRev += 1
        let (state, value) = readBack(action)
        let result = CommandResult(
            cmdId: command.cmdId,
            state: state,
            observed: Observed(value: value, src: "core", uptimeMs: uptime.nowMs)
        )
        if let index = index(of: number) {
            sessions[index].commands.record(.init(ack: ack, result: result, atUptimeMs: uptimeMs), cmdId: command.cmdId)
        }
        send(.cmdResult(result), id: nil, to: number)
        guard state == .applied else { return }
        regeneratePlan()
        send(planMessage(id: nil), id: nil, to: number)
    }

    /// The first check the command fails, or the action it asks for.
    private func check(_ command: Command, role: Role?, uptimeMs: Int64) -> Result<CommandAction, CommandRefusal> {
        let op = CBOR.text(command.op.rawValue)
        func rejected(_ code: ErrorCode, _ args: CBORMap = [:]) -> Result<CommandAction, CommandRefusal> {
            .failure(.rejected(code, args))
        }
        if command.notValidAfterMs <= uptimeMs {
            let args: CBORMap = ["notValidAfterMs": .int(command.notValidAfterMs), "uptimeMs": .int(uptimeMs)]
            return .failure(CommandRefusal(state: .expired, error: ErrorBody(code: .commandExpired, args: args)))
        }
        guard CommandAction.ops.contains(command.op), let scope = command.op.requiredScope else {
            return rejected(.unknownOp, ["op": op])
        }
        guard let role else { return rejected(.grantRevoked) }
        guard role.scopes.contains(scope) else {
            return rejected(.scopeDenied, ["op": op, "needScope": .text(scope.rawValue), "role": .text(role.rawValue)])
        }
        guard command.expect.rev == controlRev else {
            return rejected(.conflict, ["expected": .unsigned(command.expect.rev), "actual": .unsigned(controlRev)])
        }
        let blocked = snapshot(proto: 1).dispatchBlockedBy
        if CommandAction.movesEnergy(command.op), !blocked.isEmpty {
            return rejected(.unavailable, ["dispatchBlockedBy": .array(blocked.map(CBOR.text))])
        }
        if let failed = failingGuard(command.expect.guards) {
            let fids = command.expect.guards.map(\.fid).sorted().map { CBOR.int(Int64($0)) }
            let args: CBORMap = [
                "fid": .int(Int64(failed.fid)), "op": .text(failed.op.rawValue), "value": .number(failed.value),
                "guards": .array(fids),
            ]
            return rejected(.precondition, args)
        }
        return CommandAction.read(op: command.op, args: command.args, uptimeMs: uptimeMs, wallMs: wallClock.nowMs)
    }

    /// The first guard that fails against fresh field values; an unknown field or comparison fails.
    private func failingGuard(_ guards: [Guard]) -> Guard? {
        let fields = house.fields(modeIndex: ModeCatalogue.index(of: house.mode))
        return guards.first { check in
            guard let value = fields[check.fid].map(Double.init) else { return true }
            switch check.op {
            case .lessThan: return !(value < check.value)
            case .lessThanOrEqual: return !(value <= check.value)
            case .greaterThan: return !(value > check.value)
            case .greaterThanOrEqual: return !(value >= check.value)
            default: return true
            }
        }
    }

    private func apply(_ action: CommandAction) {
        switch action {
        case .setMode(let mode): house.mode = mode
        case .hold(let hold, _): house.car.hold = hold
        case .boost(let boost): house.car.boost = boost
        }
    }

    /// What the box now holds: `applied` when it is what was asked, `superseded` when it is something else.
    private func readBack(_ action: CommandAction) -> (CommandState, Double) {
        switch action {
        case .setMode(let mode):
            let index = ModeCatalogue.index(of: house.mode)
            return (house.mode == mode ? .applied : .superseded, Double(index))
        case .hold(let hold, let askedW):
            let held = house.car.hold?.powerW ?? 0
            return (held == (hold == nil ? 0 : askedW) ? .applied : .superseded, held)
        case .boost(let boost):
            let boosting = house.car.isBoosting(wallMs: wallClock.nowMs)
            return (boosting == (boost != nil) ? .applied : .superseded, boosting ? 1 : 0)
        }
    }
}
