/// An operation a `cmd` names (registry `ops`); a box answers an op it does not implement with E_UNKNOWN_OP.
public struct CommandOp: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Change the site operating mode; args `{mode}`.
    public static let siteModeSet: CommandOp = "site.mode.set"

    /// Hold the battery at a fixed setpoint (in the registry, not implemented by the box).
    public static let batteryHold: CommandOp = "battery.hold"

    /// Charge the car now at a fixed power, or release the hold with `clear`.
    public static let loadpointHold: CommandOp = "loadpoint.hold"

    /// Boost the car from the house battery, or withdraw it with `cancel`.
    public static let loadpointBoost: CommandOp = "loadpoint.boost"

    /// Every op in the registry, in its order.
    public static let all: [CommandOp] = [.siteModeSet, .batteryHold, .loadpointHold, .loadpointBoost]

    /// The scope a grant must carry for the box to act on this op; nil for an op the registry does not name.
    public var requiredScope: Scope? {
        switch self {
        case .siteModeSet: .modeWrite
        case .batteryHold, .loadpointHold, .loadpointBoost: .dispatchWrite
        default: nil
        }
    }
}
