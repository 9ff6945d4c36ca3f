import FTWClient
import Foundation

/// One frame of the live home in text: a pure function of what the observations gave (``Shown``) and now, so a test
/// checks what a person sees at any instant (an outage's frame, a frame a second later) without a terminal.
///
/// Each value is in words and units with its own age, counted from its moment to now and never clamped; the
/// connection is said as the client reports it; the chart marks every missed stretch.
public enum Frame {
    /// The frame's lines at `nowMs`, charting `field`'s trace.
    public static func lines(of shown: Shown, nowMs: Int64, field: TraceField) -> [String] {
        let zone = shown.timeZone
        var lines = [
            "live-home · \(Words.clock(nowMs, in: zone)) \(zone.identifier)",
            row("connection", Words.connection(shown.connection, nowMs: nowMs, zone: zone)),
            row("readings", shown.home.map { Words.readings($0.freshness, zone: zone) } ?? "none yet"),
            "",
        ]
        let values = (shown.home.map { readingRows($0, modes: shown.modes) } ?? []) + answerRows(shown, nowMs: nowMs)
        lines += values.map { row($0.label, $0.text, age: Words.age($0.asOf, nowMs: nowMs)) }
        if let trace = shown.trace {
            let missed = MissedStretch.of(trace, isLive: shown.connection.isLive)
            lines += ["", "\(field.name), the last five minutes: o from the sealed files, * live, ░ missed"]
            lines += Chart(trace: trace, missed: missed, nowMs: nowMs, width: 60, height: 8).rows
            lines.append(row("missed", missedText(missed, nowMs: nowMs, zone: zone)))
        }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// One value on the screen: what it is, what it says, and when it was true.
    struct Value {
        var label: String
        var text: String
        var asOf: AsOf
    }

    /// `  label       text                                 age`.
    static func row(_ label: String, _ text: String, age: String = "") -> String {
        let body = "  " + label.padded(to: 12) + text
        return age.isEmpty ? body : body.padded(to: 62) + "  " + age
    }

    /// The readings in words: solar, the grid's direction, the battery's charge and flow, the house, the car, the
    /// mode by its name from hello; any other field as its value and unit.
    static func readingRows(_ home: HomeScreen, modes: [HomeMode]) -> [Value] {
        var byName = Dictionary(home.readings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var rows: [Value] = []
        func take(_ name: String, _ label: String, _ words: (Int64) -> String) {
            guard let reading = byName.removeValue(forKey: name) else { return }
            rows.append(Value(label: label, text: words(reading.value), asOf: reading.asOf))
        }
        take("pv_w", "solar") { $0 <= 0 ? Words.power($0) : "drawing \(Words.power($0))" }
        take("grid_w", "grid") { watts in
            watts > 0
                ? "importing \(Words.power(watts)) from the grid"
                : watts < 0 ? "exporting \(Words.power(watts)) to the grid" : "nothing to or from the grid"
        }
        let flow = byName.removeValue(forKey: "battery_w")
        if let charge = byName.removeValue(forKey: "battery_soc") {
            let direction = flow.map { ", " + batteryFlow($0.value) } ?? ""
            let asOf = flow.map { older(charge.asOf, $0.asOf) } ?? charge.asOf
            rows.append(Value(label: "battery", text: "\(charge.value / 10) %\(direction)", asOf: asOf))
        } else if let flow {
            rows.append(Value(label: "battery", text: batteryFlow(flow.value), asOf: flow.asOf))
        }
        take("load_w", "house") { "uses \(Words.power($0))" }
        take("ev_w", "car") { $0 > 0 ? "charging \(Words.power($0))" : "not charging" }
        take("mode", "mode") { index in
            modes.indices.contains(Int(index)) ? modes[Int(index)].label : "number \(index) (not in the box's list)"
        }
        for reading in byName.values.sorted(by: { $0.name < $1.name }) {
            let unit = reading.unit.isEmpty ? "" : " \(reading.unit)"
            rows.append(Value(label: reading.name, text: "\(reading.value)\(unit)", asOf: reading.asOf))
        }
        return rows
    }

    private static func batteryFlow(_ watts: Int64) -> String {
        watts > 0 ? "charging \(Words.power(watts))" : watts < 0 ? "discharging \(Words.power(watts))" : "resting"
    }

    /// Of two moments, the one a value resting on both can claim: the older, or unknown when either is.
    private static func older(_ first: AsOf, _ second: AsOf) -> AsOf {
        guard let one = first.moment, let other = second.moment else { return .unknown }
        return one <= other ? first : second
    }

    /// The price now, the plan's next slot and the chargers, each with the moment it was answered.
    static func answerRows(_ shown: Shown, nowMs: Int64) -> [Value] {
        let zone = shown.timeZone
        var rows: [Value] = []
        if let prices = shown.prices {
            rows.append(Value(label: "price now", text: priceNow(prices, nowMs: nowMs, zone: zone), asOf: prices.asOf))
        }
        if let plan = shown.plan {
            rows.append(Value(label: "next slot", text: nextSlot(plan, nowMs: nowMs, zone: zone), asOf: plan.asOf))
        }
        if let home = shown.home {
            let text = home.chargers.map { list in
                list.isEmpty ? "none" : list.map(Words.charger).joined(separator: "; ")
            }
            rows.append(Value(label: "chargers", text: text ?? "not known yet", asOf: home.chargersAsOf))
        }
        return rows
    }

    private static func priceNow(_ prices: ShownAnswer<PriceWindow>, nowMs: Int64, zone: TimeZone) -> String {
        guard prices.isAvailable else { return "not served by this box" }
        guard let window = prices.answer else { return prices.failure.map { "none: \($0)" } ?? "not known yet" }
        guard let rate = window.rates.first(where: { $0.startMs <= nowMs && nowMs < $0.endMs }) else {
            return "none for now in the prices held"
        }
        return Words.price(minor: rate.totalMinor, currency: window.currency) + " until "
            + Words.clock(rate.endMs, in: zone, seconds: false)
    }

    private static func nextSlot(_ plan: ShownAnswer<ShownPlan>, nowMs: Int64, zone: TimeZone) -> String {
        guard plan.isAvailable else { return "not served by this box" }
        guard let held = plan.answer else { return plan.failure.map { "none: \($0)" } ?? "not known yet" }
        guard let slot = held.slots.first(where: { $0.startMs > nowMs }) else { return "none after now" }
        let end = slot.startMs + slot.durationMs
        return "\(Words.clock(slot.startMs, in: zone, seconds: false))–\(Words.clock(end, in: zone, seconds: false)) "
            + "\(Words.plannedBattery(slot.batteryW)) (\(slot.reason.replacingOccurrences(of: "_", with: " ")))"
    }

    /// `41 s at launch (12:58:41–12:59:22); 12 s (13:01:10–13:01:22); 8 s since 13:02:33, and counting`.
    static func missedText(_ missed: [MissedStretch], nowMs: Int64, zone: TimeZone) -> String {
        guard !missed.isEmpty else { return "nothing" }
        return missed.map { stretch in
            let length = Words.duration(seconds: stretch.seconds(nowMs: nowMs))
            let when = stretch.atLaunch ? " at launch" : ""
            guard let untilMs = stretch.untilMs else {
                return "\(length)\(when) since \(Words.clock(stretch.fromMs, in: zone)), and counting"
            }
            return "\(length)\(when) (\(Words.clock(stretch.fromMs, in: zone))–\(Words.clock(untilMs, in: zone)))"
        }
        .joined(separator: "; ")
    }
}

extension String {
    /// The text padded with spaces to `width` characters.
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
