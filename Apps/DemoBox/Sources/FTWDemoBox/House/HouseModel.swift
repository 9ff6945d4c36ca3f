import Foundation

/// The simulated home's physics as pure functions of the wall clock: the same instant always reads the same, so a
/// closed history tile never changes and its etag is stable across queries, restarts and machines.
///
/// Site sign convention: positive is power flowing into the site. PV is negative while it generates; the car and
/// the household are positive; the battery is positive while charging.
struct HouseModel: Sendable {
    static let pvPeakW = 6500.0
    static let batteryCapacityWh = 13_500.0
    static let batteryMaxW = 5000.0
    static let chargerMaxW = 11_000.0
    /// The battery never goes below this share on its own (the planner's reserve).
    static let batteryReserve = 0.10

    private static let latitude = 59.33 * Double.pi / 180
    /// sin of the highest midsummer sun at this latitude, which scales PV to its peak.
    private static let highestSun = sin((90 - 59.33 + 23.44) * Double.pi / 180)
    private static let hourMs = 3_600_000.0

    let zone: LocalZone

    /// PV power at `atMs`, ≤ 0: the sun's elevation by local time and season, and slow deterministic clouds.
    func pvW(atMs: Int64) -> Double {
        let hours = Double(zone.msIntoDay(atMs: atMs)) / Self.hourMs
        let day = Double(zone.dayNumber(atMs: atMs)).truncatingRemainder(dividingBy: 365.2422)
        let declination = -23.44 * Double.pi / 180 * cos(2 * Double.pi * (day + 10) / 365.2422)
        let hourAngle = (hours - 12.5) * 15 * Double.pi / 180
        let elevation =
            sin(Self.latitude) * sin(declination) + cos(Self.latitude) * cos(declination) * cos(hourAngle)
        guard elevation > 0 else { return 0 }
        let minutes = Double(atMs) / 60_000
        let clouds = 0.8 + 0.2 * sin(2 * Double.pi * minutes / 47) * cos(2 * Double.pi * minutes / 13)
        return -min(Self.pvPeakW, Self.pvPeakW * elevation / Self.highestSun * clouds)
    }

    /// Household load at `atMs` (the car excluded): a base, a morning and an evening peak, a fridge's cycle and a
    /// little jitter.
    func loadW(atMs: Int64) -> Double {
        let hours = Double(zone.msIntoDay(atMs: atMs)) / Self.hourMs
        let minutes = Double(atMs) / 60_000
        let fridge = Self.floorMod(Int64(minutes.rounded(.down)), 30) < 10 ? 150.0 : 0
        let jitter = 120 * sin(2 * Double.pi * minutes / 7) + 80 * sin(2 * Double.pi * minutes / 3.1)
        let peaks =
            Self.bump(hours, at: 7.25, width: 0.75, height: 1400)
            + Self.bump(hours, at: 12, width: 1, height: 400)
            + Self.bump(hours, at: 18.5, width: 1.5, height: 2200)
        return max(150, 350 + peaks + fridge + jitter)
    }

    /// The car on its own schedule: full power from 22:00 to 23:30 local, as a nightly top-up.
    func scheduledCarW(atMs: Int64) -> Double {
        let hours = Double(zone.msIntoDay(atMs: atMs)) / Self.hourMs
        return hours >= 22 && hours < 23.5 ? Self.chargerMaxW : 0
    }

    /// Self-consumption: the battery takes the surplus and covers the deficit, within its power and its charge.
    static func selfConsumingBatteryW(loadW: Double, pvW: Double, storedWh: Double, hours: Double) -> Double {
        bounded(-(loadW + pvW), storedWh: storedWh, hours: hours)
    }

    /// `wantedW` cut to the battery's power and to what its charge allows over `hours`.
    static func bounded(_ wantedW: Double, storedWh: Double, hours: Double) -> Double {
        let power = min(batteryMaxW, max(-batteryMaxW, wantedW))
        if power > 0 { return min(power, max(0, batteryCapacityWh - storedWh) / hours) }
        let floorWh = batteryCapacityWh * batteryReserve
        return max(power, -max(0, storedWh - floorWh) / hours)
    }

    private static func bump(_ hours: Double, at center: Double, width: Double, height: Double) -> Double {
        let distance = (hours - center) / width
        return height * exp(-distance * distance / 2)
    }

    private static func floorMod(_ value: Int64, _ divisor: Int64) -> Int64 {
        LocalZone.floorMod(value, divisor)
    }
}
