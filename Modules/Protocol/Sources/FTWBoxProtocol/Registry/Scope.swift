/// One permission a grant carries (registry `scopes`); roles expand into these.
public struct Scope: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Current readings and freshness.
    public static let liveRead: Scope = "ftw.live.read"

    /// Stored history.
    public static let historyRead: Scope = "ftw.history.read"

    /// Dispatch plan and its reasoning.
    public static let planRead: Scope = "ftw.plan.read"

    /// Box and driver health.
    public static let healthRead: Scope = "ftw.health.read"

    /// Devices and their capabilities.
    public static let assetsRead: Scope = "ftw.assets.read"

    /// Control energy assets.
    public static let dispatchWrite: Scope = "ftw.dispatch.write"

    /// Change site operating mode.
    public static let modeWrite: Scope = "ftw.mode.write"

    /// See who has access.
    public static let membersRead: Scope = "ftw.members.read"

    /// Invite and revoke.
    public static let membersWrite: Scope = "ftw.members.write"

    /// Every scope in the registry, in its order.
    public static let all: [Scope] = [
        .liveRead, .historyRead, .planRead, .healthRead, .assetsRead, .dispatchWrite, .modeWrite, .membersRead,
        .membersWrite,
    ]
}
