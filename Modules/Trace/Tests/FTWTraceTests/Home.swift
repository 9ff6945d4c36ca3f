import FTWBoxProtocol

/// A home as the box describes it: a site meter (grid, load), an inverter (PV), a battery (power, charge), and two
/// fields the box holds itself (the mode, the charger's power).
enum Home {
    static let meter = "meter"
    static let inverter = "inverter"
    static let battery = "battery"
    static let staleAfterMs: Int64 = 60_000

    static let dict: [Int: FieldDef] = [
        FieldID.mode: FieldDef(name: "mode", unit: nil, srcId: nil),
        FieldID.grid: FieldDef(name: "grid_w", unit: "W", srcId: meter),
        FieldID.pv: FieldDef(name: "pv_w", unit: "W", srcId: inverter),
        FieldID.battery: FieldDef(name: "battery_w", unit: "W", srcId: battery),
        FieldID.batterySoc: FieldDef(name: "battery_soc", unit: "permille", srcId: battery),
        FieldID.load: FieldDef(name: "load_w", unit: "W", srcId: meter),
        FieldID.ev: FieldDef(name: "ev_w", unit: "W", srcId: nil),
    ]

    static let values: [Int: Int64] = [
        FieldID.mode: 0, FieldID.grid: 1_200, FieldID.pv: -3_400, FieldID.battery: 500, FieldID.batterySoc: 640,
        FieldID.load: 1_700, FieldID.ev: 0,
    ]

    /// The source table at `uptimeMs`: every device answered 200 ms ago, except those in `silent`, which stopped
    /// answering 70 s ago and are `lagging`, as the box's ladder says.
    static func sources(atUptimeMs uptimeMs: Int64, silent: Set<String> = []) -> [String: SourceInfo] {
        var table: [String: SourceInfo] = [:]
        for name in [meter, inverter, battery] {
            let quiet = silent.contains(name)
            table[name] = SourceInfo(
                name: name,
                lastOkMs: uptimeMs - (quiet ? 70_000 : 200),
                staleAfterMs: staleAfterMs,
                state: quiet ? .lagging : .live
            )
        }
        return table
    }

    /// The snap the box sends after the first `sub`.
    static func snap(
        uptimeMs: Int64,
        values: [Int: Int64] = values,
        dict: [Int: FieldDef] = dict,
        silent: Set<String> = []
    ) -> Snap {
        Snap(
            uptimeMs: uptimeMs,
            controlRev: 1,
            dict: dict,
            fields: values,
            sources: sources(atUptimeMs: uptimeMs, silent: silent)
        )
    }

    /// Ten fields on one meter: the home of the ring file's size budget.
    static let tenFields: [Int: FieldDef] = Dictionary(
        uniqueKeysWithValues: (1...10).map { ($0, FieldDef(name: "field_\($0)", unit: "W", srcId: meter)) }
    )
}
