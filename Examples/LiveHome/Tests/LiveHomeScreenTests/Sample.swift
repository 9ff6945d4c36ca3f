import FTWBoxProtocol
import FTWClient
import Foundation
import LiveHomeScreen

/// A home as the observations give it, at 13:02:41 in Stockholm: solar, an import from the grid, a battery charging at
/// 11 %, the prices and the plan answered 41 s ago, a charger with a car, and a grid trace with a launch gap and an
/// outage behind it.
enum Sample {
    /// 2026-03-12 12:02:41 UTC, 13:02:41 in Stockholm.
    static let nowMs: Int64 = 1_773_316_961_000
    static let zone = TimeZone(identifier: "Europe/Stockholm")!
    static let grid = TraceField(named: "grid_w")!
    /// The hour's start, 13:00:00 local.
    static let hourMs: Int64 = 1_773_316_800_000

    /// The screen's values, the readings as of `readingsMs`, the connection `connection`.
    static func shown(readingsMs: Int64, connection: ConnectionStatus) -> Shown {
        var shown = Shown()
        shown.home = home(readingsMs: readingsMs, live: connection.isLive)
        shown.modes = [
            HomeMode(key: "self_consumption", label: "Self-consumption", tooltip: "", tier: "primary"),
            HomeMode(key: "charge", label: "Charge from the grid", tooltip: "", tier: "advanced"),
        ]
        shown.prices = answer(prices(), name: "prices")
        shown.plan = answer(plan(), name: "plan")
        shown.trace = trace()
        shown.connection = connection
        shown.timeZone = zone
        return shown
    }

    static func home(readingsMs: Int64, live: Bool) -> HomeScreen {
        let values: [(String, Int64, String)] = [
            ("battery_soc", 115, "permille"), ("battery_w", 1_200, "W"), ("ev_w", 0, "W"), ("grid_w", 2_700, "W"),
            ("load_w", 3_100, "W"), ("mode", 0, ""), ("pv_w", -900, "W"),
        ]
        var home = HomeScreen(
            readings: values.map { name, value, unit in
                var reading = HomeScreen.Reading(name: name, value: value, unit: unit)
                reading.asOf = AsOf(moment: readingsMs, basis: .boxUptime)
                return reading
            },
            freshness: live ? .live(sinceMs: nowMs - 60_000) : .stale(takenAtMs: readingsMs),
            chargers: [Charger(id: "garage", name: "Garage", powerW: 0, connected: true, charging: false)],
            planSlots: 2,
            priceRates: 2
        )
        home.chargersAsOf = AsOf(moment: nowMs - 41_000, basis: .answered)
        return home
    }

    static func answer<Answer>(_ value: Answer, name: AskName) -> ShownAnswer<Answer> {
        ShownAnswer(
            stored: StoredAnswer(answer: value, name: name, askedAtMs: nowMs - 41_000),
            isAvailable: true,
            failure: nil
        )
    }

    /// 1.23 SEK/kWh from 13:00 to 14:00, 0.98 from 14:00 to 15:00.
    static func prices() -> PriceWindow {
        let slots = [
            PriceSlot(startMs: hourMs, durationMs: 3_600_000, spotMinor: 80, totalMinor: 123),
            PriceSlot(startMs: hourMs + 3_600_000, durationMs: 3_600_000, spotMinor: 60, totalMinor: 98),
        ]
        let answer = Price(zone: "SE3", currency: "SEK", slots: slots, stale: false)
        return try! PriceWindow(answer: answer, day: PriceDay(containing: nowMs, in: zone)!)
    }

    /// Hold the battery from 13:00, charge it at 3 kW from 13:15 (cheap import).
    static func plan() -> ShownPlan {
        let slots = [
            PlanSlot(startMs: hourMs, durationMs: 900_000, batteryW: 0, gridW: 0, priceMinor: 123, reason: .idle),
            PlanSlot(
                startMs: hourMs + 900_000,
                durationMs: 900_000,
                batteryW: 3_000,
                gridW: 3_000,
                priceMinor: 123,
                reason: .cheapImport
            ),
        ]
        return try! ShownPlan(plan: Plan(rev: 7, uptimeMs: 0, slots: slots, stale: false))
    }

    /// The ring file's points from 4 min 50 s to 4 min 10 s ago (run 1), live ones from 3 min 20 s ago to 1 min 40 s
    /// ago (run 2), an outage, then live again from 60 s ago to 5 s ago (run 3).
    static func trace() -> FieldTrace {
        func points(run: Int, seen: Bool, agoFrom oldest: Int64, to newest: Int64, every step: Int) -> [ChartSample] {
            var samples: [ChartSample] = []
            for ago in stride(from: oldest, through: newest, by: -step) {
                let value = Double(2_000 + ago % 7 * 100)
                let timeMs = nowMs - ago * 1_000
                samples.append(
                    ChartSample(timeMs: timeMs, value: value, seen: seen, run: run, startsRun: samples.isEmpty)
                )
            }
            return samples
        }
        let restored = points(run: 1, seen: false, agoFrom: 290, to: 250, every: 5)
        let live = points(run: 2, seen: true, agoFrom: 200, to: 100, every: 1)
        let resumed = points(run: 3, seen: true, agoFrom: 60, to: 5, every: 1)
        return FieldTrace(
            field: grid,
            samples: restored + live + resumed,
            missed: MissedTime(fromMs: nowMs - 250_000, untilMs: nowMs - 200_000)
        )
    }
}
