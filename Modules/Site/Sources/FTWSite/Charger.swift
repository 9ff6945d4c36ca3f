/// One charger (loadpoint) as the site shows it: which it is, how much it draws, and whether a car is connected and
/// charging.
public struct Charger: Sendable, Hashable {
    /// What the box draws more than before it counts a charger as charging, in W (the box's `DeliveringW`).
    public static let chargingThresholdW: Int64 = 100

    /// The box's stable id, such as `garage`.
    public var id: String
    /// The name to show: the box's name, title or driver name, else the id.
    public var name: String
    /// What it draws now in W (positive is charging); nil when the box did not say.
    public var powerW: Int64?
    /// Whether a car is plugged in.
    public var connected: Bool
    /// Whether it is charging: the box's flag, or more than ``chargingThresholdW`` drawn.
    public var charging: Bool

    /// Makes a charger.
    public init(id: String, name: String, powerW: Int64?, connected: Bool, charging: Bool) {
        self.id = id
        self.name = name
        self.powerW = powerW
        self.connected = connected
        self.charging = charging
    }
}
