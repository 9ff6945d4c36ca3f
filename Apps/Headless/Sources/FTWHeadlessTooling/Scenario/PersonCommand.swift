public import FTWBoxProtocol
import FTWClockSeam
public import FTWSessionInterface

/// A command a person gives in a scenario (a `cmd` frame on lane 0, never queued behind reads): the site's mode, or
/// the demo box's charger (`garage`) held or boosted.
public enum PersonCommand: Sendable, Hashable, CustomStringConvertible {
    /// `site.mode.set` to this mode.
    case mode(ModeKey)
    /// `loadpoint.hold` at this power, for this long (nil: until released).
    case hold(watts: Int, for: Duration?)
    /// `loadpoint.hold` released.
    case releaseHold
    /// `loadpoint.boost` for this long.
    case boost(Duration)
    /// `loadpoint.boost` withdrawn.
    case cancelBoost

    /// The charger the demo box has.
    static let loadpoint: CBOR = "garage"

    /// The command as the session sends it.
    public var request: CommandRequest {
        switch self {
        case .mode(let mode):
            CommandRequest(op: CommandOp.siteModeSet.rawValue, args: ["mode": .text(mode.rawValue)])
        case .hold(let watts, let duration):
            CommandRequest(
                op: CommandOp.loadpointHold.rawValue,
                args: [
                    "id": Self.loadpoint, "power_w": .int(Int64(watts)),
                    "hold_s": .int((duration?.wholeMilliseconds ?? 0) / 1000),
                ]
            )
        case .releaseHold:
            CommandRequest(op: CommandOp.loadpointHold.rawValue, args: ["id": Self.loadpoint, "clear": true])
        case .boost(let duration):
            CommandRequest(
                op: CommandOp.loadpointBoost.rawValue,
                args: ["id": Self.loadpoint, "duration_s": .int(duration.wholeMilliseconds / 1000)]
            )
        case .cancelBoost:
            CommandRequest(op: CommandOp.loadpointBoost.rawValue, args: ["id": Self.loadpoint, "cancel": true])
        }
    }

    /// The step as a scenario writes it, after `command`.
    public var description: String {
        switch self {
        case .mode(let mode): "mode \(mode.rawValue)"
        case .hold(let watts, nil): "hold \(watts)"
        case .hold(let watts, let duration?): "hold \(watts) for \(ScenarioStep.written(duration))"
        case .releaseHold: "hold off"
        case .boost(let duration): "boost \(ScenarioStep.written(duration))"
        case .cancelBoost: "boost off"
        }
    }
}
