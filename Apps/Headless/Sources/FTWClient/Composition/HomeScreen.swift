public import FTWClockSeam
import FTWPrices
public import FTWSite

/// What a person sees on the home screen at one moment, as plain values: the readings (live, from the sealed files,
/// or the last live ones after the stream ended, each with since when), the chargers, the plan and the prices the
/// models hold.
///
/// An integrator draws from this without knowing which model owns what (``HeadlessClient/observeHomeScreen()``
/// hands out each change); `description` is the text form the example clients print.
public struct HomeScreen: Sendable, Hashable, CustomStringConvertible {
    /// One reading of the Now screen.
    public struct Reading: Sendable, Hashable {
        /// The field's name, such as `grid_w`.
        public var name: String
        /// Its value in the field's unit.
        public var value: Int64
        /// The unit; empty when it has none.
        public var unit: String
        /// When the reading was true and what that rests on (the box's uptime placed on the wall clock, the sealed
        /// file's moment, or unknown): its age is ``/FTWClockSeam/AsOf/ageMs(atWallMs:)`` at the screen's now.
        public var asOf: AsOf = .unknown

        /// Makes a reading.
        public init(name: String, value: Int64, unit: String) {
            self.name = name
            self.value = value
            self.unit = unit
        }
    }

    /// Where the readings come from and since when: what a status line says.
    public enum Freshness: Sendable, Hashable, CustomStringConvertible {
        /// No readings yet: no sealed snapshot and no stream.
        case none
        /// Drawn from the sealed files of an earlier run; the box last confirmed them at `takenAtMs`.
        case sealedFiles(takenAtMs: Int64)
        /// Live on this run's stream: its beats arrive within the gap rule, since `sinceMs` (the first beat of this
        /// live stretch).
        case live(sinceMs: Int64)
        /// The stream that gave them has ended or its beats stopped; the box last confirmed them at `takenAtMs`.
        case stale(takenAtMs: Int64)

        /// Where from and since when, in UTC: `live since 10:02:03 UTC`, `from the sealed files, of 09:58:41 UTC`.
        public var description: String {
            switch self {
            case .none: "no readings yet"
            case .live(let sinceMs): "live since \(UTCTime(ms: sinceMs))"
            case .sealedFiles(let takenAtMs): "from the sealed files, of \(UTCTime(ms: takenAtMs))"
            case .stale(let takenAtMs): "no longer live, of \(UTCTime(ms: takenAtMs))"
            }
        }
    }

    /// The readings, by field name; empty before any snapshot.
    public var readings: [Reading]
    /// Where the readings come from and since when.
    public var freshness: Freshness
    /// The chargers, by name; nil before the box answered (or the sealed files held) their read.
    public var chargers: [Charger]?
    /// How many slots of the plan are shown; nil before any plan.
    public var planSlots: Int?
    /// How many price rates are shown; nil before any prices.
    public var priceRates: Int?
    /// When the chargers' answer was true (answered on this run, or the sealed file's moment); unknown before any.
    public var chargersAsOf: AsOf = .unknown
    /// When the plan was true; unknown before any.
    public var planAsOf: AsOf = .unknown
    /// When the prices were true; unknown before any.
    public var pricesAsOf: AsOf = .unknown

    /// Makes a screen, as a test or a decoded record states it.
    public init(
        readings: [Reading],
        freshness: Freshness,
        chargers: [Charger]?,
        planSlots: Int?,
        priceRates: Int?
    ) {
        self.readings = readings
        self.freshness = freshness
        self.chargers = chargers
        self.planSlots = planSlots
        self.priceRates = priceRates
    }

    /// Whether the readings come from this run's stream and it still runs.
    public var isLive: Bool {
        if case .live = freshness { true } else { false }
    }

    /// How old the readings are at `nowMs` (the client's ``HeadlessClient/nowMs``): 0 while live, from when the box
    /// last confirmed them otherwise; nil before any. Each reading's own age is its ``Reading/asOf``'s.
    public func ageMs(nowMs: Int64) -> Int64? {
        switch freshness {
        case .none: nil
        case .live: 0
        case .sealedFiles(let takenAtMs), .stale(let takenAtMs): max(0, nowMs - takenAtMs)
        }
    }

    /// Reads what `client`'s models show now.
    ///
    /// - Parameter client: The client whose models to read.
    /// - Returns: The home screen as a person would see it.
    public static func read(from client: HeadlessClient) async -> HomeScreen {
        let shown = await client.snapshot.shown
        let liveness = await client.session.liveness
        let readings = (shown?.snapshot.fields ?? [:]).compactMap { id, value -> Reading? in
            guard let shown, let field = shown.snapshot.dict[id] else { return nil }
            var reading = Reading(name: field.name, value: value, unit: field.unit ?? "")
            reading.asOf = shown.asOf(field: id)
            return reading
        }
        var screen = HomeScreen(
            readings: readings.sorted { $0.name < $1.name },
            freshness: freshness(of: shown, liveness: liveness),
            chargers: await client.chargers.value?.chargers,
            planSlots: await client.plan.plan?.slots.count,
            priceRates: await client.prices.window?.rates.count
        )
        screen.chargersAsOf = await client.chargers.shown.asOf
        screen.planAsOf = await client.plan.shown.asOf
        screen.pricesAsOf = await client.prices.shown.asOf
        return screen
    }

    /// Live only while the stream's beats arrive (not from `hello_ok`, not while the beats have stopped), since the
    /// first beat of this live stretch.
    private static func freshness(of shown: ShownSnapshot?, liveness: StreamLiveness?) -> Freshness {
        guard let shown else { return .none }
        switch shown.origin {
        case .cache: return .sealedFiles(takenAtMs: shown.snapshot.takenAtMs)
        case .live:
            guard case .live(let sinceMs)? = liveness else { return .stale(takenAtMs: shown.snapshot.takenAtMs) }
            return .live(sinceMs: sinceMs)
        }
    }

    /// `, as of 10:02:03.000 UTC (answered)` for a value with a moment; nothing for one not known yet.
    private static func asOf(_ asOf: AsOf) -> String {
        asOf.moment == nil ? "" : ", as of \(asOf)"
    }

    /// The screen as lines of text: where the readings come from, the readings, then the chargers, the plan and the
    /// prices. Instants are printed in UTC, so the text does not depend on the machine's zone.
    public var description: String {
        var lines: [String] = []
        switch freshness {
        case .none: lines.append("no readings yet")
        case .live: lines.append("live readings, \(freshness)")
        case .sealedFiles, .stale: lines.append("readings \(freshness)")
        }
        lines += readings.map { "  \($0.name) = \($0.value)\($0.unit.isEmpty ? "" : " " + $0.unit), as of \($0.asOf)" }
        let chargerText = chargers.map { list in
            list.map { "\($0.name) \($0.charging ? "charging" : $0.connected ? "connected" : "idle")" }
                .joined(separator: ", ")
        }
        lines.append(
            "chargers: \(chargerText.map { $0.isEmpty ? "none" : $0 } ?? "not known yet")\(Self.asOf(chargersAsOf))"
        )
        lines.append("plan: \(planSlots.map { "\($0) slots" } ?? "not known yet")\(Self.asOf(planAsOf))")
        lines.append("prices: \(priceRates.map { "\($0) rates" } ?? "not known yet")\(Self.asOf(pricesAsOf))")
        return lines.joined(separator: "\n")
    }
}
