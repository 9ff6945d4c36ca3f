import Prices
public import Site

/// What a person sees on the home screen at one moment, as plain values: the readings (live, or from the sealed
/// files with their age), the chargers, the plan and the prices the models hold.
///
/// An integrator draws from this without knowing which model owns what; `description` is the text form the example
/// client and the headless command print.
public struct HomeScreen: Sendable, Hashable, CustomStringConvertible {
    /// One reading of the Now screen.
    public struct Reading: Sendable, Hashable {
        /// The field's name, such as `grid_w`.
        public var name: String
        /// Its value in the field's unit.
        public var value: Int64
        /// The unit; empty when it has none.
        public var unit: String
    }

    /// The readings, by field name; empty before any snapshot.
    public var readings: [Reading]
    /// Whether the readings come from this run's stream; false for readings drawn from the sealed files.
    public var isLive: Bool
    /// How old the readings are, in ms; nil before any snapshot.
    public var ageMs: Int64?
    /// The chargers, by name; nil before the box answered (or the sealed files held) their read.
    public var chargers: [Charger]?
    /// How many slots of the plan are shown; nil before any plan.
    public var planSlots: Int?
    /// How many price rates are shown; nil before any prices.
    public var priceRates: Int?

    /// Reads what `client`'s models show now.
    ///
    /// - Parameters:
    ///   - client: The client whose models to read.
    ///   - nowMs: Now on the wall clock (Unix ms), for the readings' age.
    /// - Returns: The home screen as a person would see it.
    public static func read(from client: HeadlessClient, nowMs: Int64) async -> HomeScreen {
        let shown = await client.snapshot.shown
        let readings = (shown?.snapshot.fields ?? [:]).compactMap { id, value -> Reading? in
            guard let field = shown?.snapshot.dict[id] else { return nil }
            return Reading(name: field.name, value: value, unit: field.unit ?? "")
        }
        return HomeScreen(
            readings: readings.sorted { $0.name < $1.name },
            isLive: shown?.isLive ?? false,
            ageMs: shown?.ageMs(nowMs: nowMs),
            chargers: await client.chargers.value?.chargers,
            planSlots: await client.plan.plan?.slots.count,
            priceRates: await client.prices.window?.rates.count
        )
    }

    /// The screen as lines of text: the readings, then the chargers, the plan and the prices.
    public var description: String {
        var lines: [String] = []
        if let ageMs {
            lines.append(isLive ? "live readings" : "readings from the sealed files, \(ageMs / 1000) s old")
            lines += readings.map { "  \($0.name) = \($0.value)\($0.unit.isEmpty ? "" : " " + $0.unit)" }
        } else {
            lines.append("no readings yet")
        }
        let chargerText = chargers.map { list in
            list.map { "\($0.name) \($0.charging ? "charging" : $0.connected ? "connected" : "idle")" }
                .joined(separator: ", ")
        }
        lines.append("chargers: \(chargerText.map { $0.isEmpty ? "none" : $0 } ?? "not known yet")")
        lines.append("plan: \(planSlots.map { "\($0) slots" } ?? "not known yet")")
        lines.append("prices: \(priceRates.map { "\($0) rates" } ?? "not known yet")")
        return lines.joined(separator: "\n")
    }
}
