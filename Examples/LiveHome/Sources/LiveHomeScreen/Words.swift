import FTWClient
import Foundation

/// What a person reads for each value: words and units rather than field names and signs, clock times in the
/// home's zone, and every age counted from the value's moment to now, never clamped.
enum Words {
    /// `0.9 kW` from 900 W (a tenth of a kilowatt from 100 W up), `45 W` below; the magnitude only, since the words
    /// around it say the direction.
    static func power(_ watts: Int64) -> String {
        let magnitude = watts.magnitude
        guard magnitude >= 100 else { return "\(magnitude) W" }
        return String(format: "%.1f kW", Double(magnitude) / 1000)
    }

    /// `13:02:33` in `zone`; `13:15` without `seconds`, for a slot's edges.
    static func clock(_ ms: Int64, in zone: TimeZone, seconds: Bool = true) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents(
            [.hour, .minute, .second],
            from: Date(timeIntervalSince1970: Double(ms) / 1000)
        )
        let minute = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return seconds ? minute + String(format: ":%02d", parts.second ?? 0) : minute
    }

    /// `12 s`, `3 min 4 s`, `2 h 5 min`: a stretch of whole seconds (negative ones as they are).
    static func duration(seconds: Int64) -> String {
        guard seconds >= 60 else { return "\(seconds) s" }
        guard seconds >= 3600 else { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds / 60 % 60) min"
    }

    /// `5 s old`, `3 min 4 s old (sealed file)`, `age unknown`: now minus the value's moment, in whole seconds
    /// (rounded down), unclamped, so it grows on every frame while nothing arrives; what the moment rests on when it
    /// is not this run's own stream or answer.
    static func age(_ asOf: AsOf, nowMs: Int64) -> String {
        guard let ageMs = asOf.ageMs(atWallMs: nowMs) else { return "age unknown" }
        let seconds = ageMs >= 0 ? ageMs / 1000 : -((-ageMs + 999) / 1000)
        switch asOf.basis {
        case .sealedFile, .cloudSendTime: return "\(duration(seconds: seconds)) old (\(asOf.basis.words))"
        case .boxUptime, .answered, .unknown: return "\(duration(seconds: seconds)) old"
        }
    }

    /// The connection as a person is told it: `live since 13:02:03`, `reconnecting — next try in 3 s (attempt 2:
    /// …)`, `waiting for the box, due 13:02:33`, `stale since 13:02:07, last reading 13:02:03`, `offline: …`.
    static func connection(_ status: ConnectionStatus, nowMs: Int64, zone: TimeZone) -> String {
        switch status {
        case .idle: return "not connected: the app is not in front"
        case .dialing(let attempt):
            return attempt > 1 ? "dialling the relay (attempt \(attempt))" : "dialling the relay"
        case .awaitingBox(let arrival): return "waiting for the box, due \(clock(arrival.movesAtMs, in: zone))"
        case .handshaking: return "greeting the box"
        case .greeted: return "the box answered; waiting for its first reading"
        case .live(let sinceMs): return "live since \(clock(sinceMs, in: zone))"
        case .stale(let sinceMs, let lastBeatMs):
            let last = lastBeatMs.map { ", last reading \(clock($0, in: zone))" } ?? ""
            return "stale since \(clock(sinceMs, in: zone))\(last): no reading within 3.5 s"
        case .backingOff(let wait):
            let seconds = status.secondsToNextTry(nowMs: nowMs) ?? 0
            return "reconnecting — next try in \(seconds) s (attempt \(wait.attempt): \(wait.because.message))"
        case .offline(let reason, let advice): return "offline: \(reason.message); \(advice)"
        }
    }

    /// Where the readings come from: live, the sealed files of an earlier run, or the last live ones.
    static func readings(_ freshness: HomeScreen.Freshness, zone: TimeZone) -> String {
        switch freshness {
        case .none: "none yet"
        case .live: "live"
        case .sealedFiles(let takenAtMs): "cached, from the sealed files of \(clock(takenAtMs, in: zone))"
        case .stale(let takenAtMs): "no longer live, last confirmed \(clock(takenAtMs, in: zone))"
        }
    }

    /// A price in the window's currency per kWh: `1.23 SEK/kWh` from 123 minor units.
    static func price(minor: Int64, currency: String) -> String {
        String(format: "%.2f", Double(minor) / 100) + " \(currency)/kWh"
    }

    /// What the plan means to do with the battery in a slot.
    static func plannedBattery(_ watts: Int64) -> String {
        watts > 0
            ? "charge the battery at \(power(watts))"
            : watts < 0 ? "discharge the battery at \(power(watts))" : "hold the battery"
    }

    /// A charger as a person reads it: `Garage: charging 7.4 kW`, `Garage: car connected, not charging`.
    static func charger(_ charger: Charger) -> String {
        let state =
            charger.charging
            ? "charging" + (charger.powerW.map { " \(power($0))" } ?? "")
            : charger.connected ? "car connected, not charging" : "no car"
        return "\(charger.name): \(state)"
    }
}
