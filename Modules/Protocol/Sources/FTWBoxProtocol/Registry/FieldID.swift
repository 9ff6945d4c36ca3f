/// The frozen telemetry field ids (registry `frozen_fields`, §3.1): permanent as of v1, the keys of every
/// `fields` and `dict` map.
public enum FieldID {
    /// The running mode, an index into `hello_ok.modes` (-1 when it is not in the list).
    public static let mode = 1
    /// Grid power in W; positive is import.
    public static let grid = 2
    /// PV power in W; negative while generating.
    public static let pv = 3
    /// Battery power in W; positive is charging.
    public static let battery = 4
    /// Battery state of charge in permille (0-1000); present only if some battery reports it.
    public static let batterySoc = 5
    /// House load in W.
    public static let load = 6
    /// The grid reading's source (registered, never sent).
    public static let sourceGrid = 7
    /// The PV reading's source (registered, never sent).
    public static let sourcePV = 8
    /// The battery reading's source (registered, never sent).
    public static let sourceBattery = 9
    /// EV charging power in W; present only if the site has a charger.
    public static let ev = 10

    /// Every frozen field as the registry describes it, by id.
    public static let frozen: [FrozenField] = [
        FrozenField(id: mode, name: "mode", kind: "enum", unit: nil),
        FrozenField(id: grid, name: "grid_w", kind: "power", unit: "W"),
        FrozenField(id: pv, name: "pv_w", kind: "power", unit: "W"),
        FrozenField(id: battery, name: "battery_w", kind: "power", unit: "W"),
        FrozenField(id: batterySoc, name: "battery_soc", kind: "ratio", unit: "permille"),
        FrozenField(id: load, name: "load_w", kind: "power", unit: "W"),
        FrozenField(id: sourceGrid, name: "src_grid", kind: "source_ref", unit: nil),
        FrozenField(id: sourcePV, name: "src_pv", kind: "source_ref", unit: nil),
        FrozenField(id: sourceBattery, name: "src_battery", kind: "source_ref", unit: nil),
        FrozenField(id: ev, name: "ev_w", kind: "power", unit: "W"),
    ]
}
