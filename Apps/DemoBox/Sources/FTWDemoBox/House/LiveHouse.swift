import FTWBoxProtocol

/// The house as the box sees it right now: what each device last reported, when it last answered, the battery's
/// charge, the running mode and what the charger was told.
///
/// The drivers sample every five seconds, so a 1 Hz stream is mostly ticks with a delta when a sample lands; a
/// quiet device keeps its last reading and stops refreshing its `lastOkMs`, so the app watches it decay.
struct LiveHouse: Sendable {
    /// The site meter's driver: every power field points at it.
    static let meter = "sungrow"
    /// The charger's driver.
    static let charger = "easee"
    /// The charger's loadpoint id, as commands and API paths name it.
    static let loadpointID = "garage"
    static let sampleMs: Int64 = 5000
    /// The box's uptime before its drivers first answer after a start: a box that just rebooted streams the
    /// readings it kept, from sources that have not answered since it started (`lastOkMs` 0), for its first seconds.
    static let driversStartMs: Int64 = 5000

    /// What the devices last reported.
    struct Readings: Sendable, Hashable {
        var gridW: Int64 = 0
        var pvW: Int64 = 0
        var batteryW: Int64 = 0
        var socPermille: Int64 = 0
        var loadW: Int64 = 0
        var carW: Int64 = 0
    }

    let model: HouseModel
    var storedWh: Double
    var mode: ModeKey
    var car = CarControl()
    private(set) var readings = Readings()
    private(set) var quiet: Set<String> = []
    private(set) var lastOkMs: [String: Int64] = [meter: 0, charger: 0]

    init(model: HouseModel, storedWh: Double, mode: ModeKey) {
        self.model = model
        self.storedWh = storedWh
        self.mode = mode
    }

    /// One pulse of the drivers: the physics moves on by `seconds`, and each device that answers reports.
    ///
    /// - Parameter plannedBatteryW: the plan's battery power for now, which the planner modes follow.
    mutating func step(wallMs: Int64, uptimeMs: Int64, seconds: Double, plannedBatteryW: Double?) {
        let sampleAt = wallMs - LocalZone.floorMod(wallMs, Self.sampleMs)
        let pv = model.pvW(atMs: sampleAt)
        let load = model.loadW(atMs: sampleAt)
        let car = car.carW(scheduledW: model.scheduledCarW(atMs: sampleAt), wallMs: wallMs, uptimeMs: uptimeMs)
        let battery = batteryW(loadW: load, pvW: pv, carW: car, planned: plannedBatteryW, wallMs: wallMs)
        storedWh = min(HouseModel.batteryCapacityWh, max(0, storedWh + battery * seconds / 3600))
        let driversUp = uptimeMs >= Self.driversStartMs
        if driversUp, !quiet.contains(Self.meter) {
            readings.pvW = Int64(DayLedger.watts(pv))
            readings.batteryW = Int64(DayLedger.watts(battery))
            readings.loadW = Int64(DayLedger.watts(load))
            readings.gridW = readings.loadW + readings.batteryW + readings.pvW + Int64(DayLedger.watts(car))
            readings.socPermille = Int64((storedWh / HouseModel.batteryCapacityWh * 1000).rounded(.down))
            lastOkMs[Self.meter] = uptimeMs
        }
        if driversUp, !quiet.contains(Self.charger) {
            readings.carW = Int64(DayLedger.watts(car))
            lastOkMs[Self.charger] = uptimeMs
        }
    }

    /// Stops (or resumes) a device's answers.
    mutating func setQuiet(_ source: String, _ isQuiet: Bool) {
        if isQuiet { quiet.insert(source) } else { quiet.remove(source) }
    }

    /// A new box process has heard from nobody yet.
    mutating func forgetAnswers() {
        for source in lastOkMs.keys { lastOkMs[source] = 0 }
    }

    /// The telemetry fields (§3.1), field 1 being the mode's index in the catalogue.
    func fields(modeIndex: Int) -> [Int: Int64] {
        [
            FieldID.mode: Int64(modeIndex), FieldID.grid: readings.gridW, FieldID.pv: readings.pvW,
            FieldID.battery: readings.batteryW, FieldID.batterySoc: readings.socPermille,
            FieldID.load: readings.loadW, FieldID.ev: readings.carW,
        ]
    }

    /// The source a field's freshness follows; nil for the mode, which the box holds itself.
    static func source(ofField fid: Int) -> String? {
        switch fid {
        case FieldID.mode: nil
        case FieldID.ev: charger
        default: meter
        }
    }

    /// The source table at `uptimeMs`.
    func sources(uptimeMs: Int64, staleAfterMs: Int64) -> [String: SourceInfo] {
        var table: [String: SourceInfo] = [:]
        for (name, lastOk) in lastOkMs {
            let state = SourceLadder.state(lastOkMs: lastOk, uptimeMs: uptimeMs, staleAfterMs: staleAfterMs)
            table[name] = SourceInfo(name: name, lastOkMs: lastOk, staleAfterMs: staleAfterMs, state: state)
        }
        return table
    }

    private func batteryW(loadW: Double, pvW: Double, carW: Double, planned: Double?, wallMs: Int64) -> Double {
        let hours = 1.0 / 3600
        if car.isBoosting(wallMs: wallMs) {
            return HouseModel.bounded(-(loadW + pvW + carW), storedWh: storedWh, hours: hours)
        }
        switch mode {
        case .idle: return 0
        case .charge: return HouseModel.bounded(HouseModel.batteryMaxW, storedWh: storedWh, hours: hours)
        case .plannerPassiveArbitrage, .plannerArbitrage, .plannerSelf, .plannerCheap:
            if let planned { return HouseModel.bounded(planned, storedWh: storedWh, hours: hours) }
            return HouseModel.selfConsumingBatteryW(loadW: loadW, pvW: pvW, storedWh: storedWh, hours: hours)
        default:
            return HouseModel.selfConsumingBatteryW(loadW: loadW, pvW: pvW, storedWh: storedWh, hours: hours)
        }
    }
}
