import FTWBoxProtocol

/// What a command asks the box to change, read from its op and args; a bad argument is the error the box rejects
/// it with (`E_UNKNOWN_OP {op, arg, value}`).
enum CommandAction: Sendable, Hashable {
    case setMode(ModeKey)
    /// A hold at a power (nil releases it), with the power that was asked.
    case hold(CarControl.Hold?, askedW: Double)
    /// A boost until a wall time (nil withdraws it).
    case boost(CarControl.Boost?)

    /// The ops the box implements.
    static let ops: Set<CommandOp> = [.siteModeSet, .loadpointHold, .loadpointBoost]
    private static let phaseModes: Set<String> = ["", "auto", "1p", "3p"]

    /// Whether the op moves energy, and so is refused while dispatch is blocked.
    static func movesEnergy(_ op: CommandOp) -> Bool {
        op == .loadpointHold || op == .loadpointBoost
    }

    /// The action `op` with `args` asks for, at box uptime `uptimeMs` and wall time `wallMs`.
    static func read(
        op: CommandOp,
        args: CBORMap,
        uptimeMs: Int64,
        wallMs: Int64
    ) -> Result<CommandAction, CommandRefusal> {
        let bad = { (arg: String) -> Result<CommandAction, CommandRefusal> in
            .failure(.rejected(.unknownOp, ["op": .text(op.rawValue), "arg": .text(arg), "value": args[arg] ?? .null]))
        }
        if op == .siteModeSet {
            guard let key = args["mode"]?.string.map(ModeKey.init(rawValue:)), ModeKey.all.contains(key) else {
                return bad("mode")
            }
            return .success(.setMode(key))
        }
        guard args["id"]?.string == LiveHouse.loadpointID else { return bad("id") }
        return op == .loadpointHold ? hold(args, uptimeMs: uptimeMs, bad: bad) : boost(args, wallMs: wallMs, bad: bad)
    }

    private static func hold(
        _ args: CBORMap,
        uptimeMs: Int64,
        bad: (String) -> Result<CommandAction, CommandRefusal>
    ) -> Result<CommandAction, CommandRefusal> {
        if args["clear"]?.boolValue == true { return .success(.hold(nil, askedW: 0)) }
        guard let power = args["power_w"]?.double, power >= 0, power.isFinite else { return bad("power_w") }
        let seconds = args["hold_s"].map { $0.int64 ?? -1 } ?? 0
        guard seconds >= 0 else { return bad("hold_s") }
        if let phase = args["phase_mode"], !(phase.string.map(phaseModes.contains) ?? false) {
            return bad("phase_mode")
        }
        let held = CarControl.Hold(
            powerW: min(power, HouseModel.chargerMaxW),
            untilUptimeMs: seconds > 0 ? uptimeMs + seconds * 1000 : nil
        )
        return .success(.hold(held, askedW: power))
    }

    private static func boost(
        _ args: CBORMap,
        wallMs: Int64,
        bad: (String) -> Result<CommandAction, CommandRefusal>
    ) -> Result<CommandAction, CommandRefusal> {
        if args["cancel"]?.boolValue == true { return .success(.boost(nil)) }
        switch (args["duration_s"], args["expires_at_ms"]) {
        case (let duration?, nil):
            guard let seconds = duration.int64, seconds > 0 else { return bad("duration_s") }
            return .success(.boost(CarControl.Boost(untilWallMs: wallMs + seconds * 1000)))
        case (nil, let expiry?):
            guard let until = expiry.int64 else { return bad("expires_at_ms") }
            return .success(.boost(CarControl.Boost(untilWallMs: until)))
        default:
            return bad("duration_s")
        }
    }
}
