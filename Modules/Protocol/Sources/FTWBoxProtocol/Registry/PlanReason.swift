/// Why a plan slot looks the way it does: a stable code the app turns into words (§6).
public struct PlanReason: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Charging from the grid while it is cheap.
    public static let cheapImport: PlanReason = "cheap_import"

    /// Discharging to avoid an expensive import.
    public static let expensiveImport: PlanReason = "expensive_import"

    /// Charging from solar surplus.
    public static let solarSurplus: PlanReason = "solar_surplus"

    /// Discharging to keep the import under the ceiling.
    public static let peakShaving: PlanReason = "peak_shaving"

    /// Holding the reserve in an expensive slot.
    public static let reserveHeld: PlanReason = "reserve_held"

    /// Exporting while export pays.
    public static let exportPaid: PlanReason = "export_paid"

    /// Nothing to do.
    public static let idle: PlanReason = "idle"
}
