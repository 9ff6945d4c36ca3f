/// What an enrolment is, as the box names it in `hello_ok.role` (registry `roles`); a projection over scopes.
public struct Role: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Holds every scope.
    public static let owner: Role = "owner"
    /// Sees live readings only.
    public static let viewer: Role = "viewer"

    /// Every role in the registry, in its order.
    public static let all: [Role] = [.owner, .viewer]

    /// The registry's label for the role, or the raw name for a role it does not list.
    public var label: String {
        switch self {
        case .owner: "Owner"
        case .viewer: "Viewer"
        default: rawValue
        }
    }

    /// The scopes the box expands the role into; none for a role the registry does not list.
    public var scopes: [Scope] {
        switch self {
        case .owner: Scope.all
        case .viewer: [.liveRead]
        default: []
        }
    }
}
