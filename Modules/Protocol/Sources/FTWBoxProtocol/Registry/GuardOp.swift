/// How a command guard compares a field with its value (§2.10); an unknown operator fails the guard.
public struct GuardOp: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Field < value.
    public static let lessThan: GuardOp = "lt"

    /// Field ≤ value.
    public static let lessThanOrEqual: GuardOp = "lte"

    /// Field > value.
    public static let greaterThan: GuardOp = "gt"

    /// Field ≥ value.
    public static let greaterThanOrEqual: GuardOp = "gte"
}
