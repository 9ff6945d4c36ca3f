import FTWBoxProtocol

/// A small planner for the demo: 96 quarter-hours from the current one, each with the battery power it would run,
/// the grid power that follows, the import price, and the reason code the box's rules (§6) give that slot.
struct Planner: Sendable {
    static let slotCount = 96
    static let slotMs: Int64 = 900_000
    private static let idleGateW: Int64 = 100
    private static let gridThresholdW: Int64 = 100
    private static let cheapShare = 0.85
    private static let expensiveShare = 1.1

    /// What one slot is expected to hold before the battery is decided.
    private struct Forecast {
        var startMs: Int64
        var pvW: Double
        var loadW: Double
        var carW: Double
        var priceMinor: Int64?
    }

    let house: HouseModel
    let prices: PriceBook
    /// The import ceiling defended, if any; `ceilingW` in the plan.
    let ceilingW: Int64?

    /// The plan from the quarter holding `nowMs`, for `mode`, starting from the battery's charge `storedWh`.
    func slots(
        nowMs: Int64,
        uptimeMs: Int64,
        pricesLate: Bool,
        mode: ModeKey,
        storedWh: Double,
        car: CarControl
    )
        -> [PlanSlot]
    {
        let first = nowMs - LocalZone.floorMod(nowMs, Self.slotMs)
        let forecasts = (0..<Self.slotCount).map { index in
            forecast(
                startMs: first + Int64(index) * Self.slotMs,
                nowMs: nowMs,
                uptimeMs: uptimeMs,
                late: pricesLate,
                car: car
            )
        }
        let known = forecasts.compactMap(\.priceMinor)
        let mean = known.isEmpty ? 0 : Double(known.reduce(0, +)) / Double(known.count)
        var stored = storedWh
        var planned: [(forecast: Forecast, batteryW: Double, storedWh: Double)] = []
        for forecast in forecasts {
            let battery = batteryW(forecast, mode: mode, meanPrice: mean, storedWh: stored)
            stored += battery * Double(Self.slotMs) / 3_600_000
            planned.append((forecast, battery, stored))
        }
        let lowest = planned.map(\.storedWh).min() ?? storedWh
        return planned.map { entry in
            slot(entry.forecast, batteryW: entry.batteryW, storedWh: entry.storedWh, meanPrice: mean, lowestWh: lowest)
        }
    }

    private func forecast(startMs: Int64, nowMs: Int64, uptimeMs: Int64, late: Bool, car: CarControl) -> Forecast {
        let samples = [150_000, 450_000, 750_000].map { startMs + Int64($0) }
        let slotUptime = uptimeMs + (startMs - nowMs)
        let carW = samples.map {
            car.carW(scheduledW: house.scheduledCarW(atMs: $0), wallMs: $0, uptimeMs: slotUptime)
        }
        return Forecast(
            startMs: startMs,
            pvW: samples.map { house.pvW(atMs: $0) }.reduce(0, +) / 3,
            loadW: samples.map { house.loadW(atMs: $0) }.reduce(0, +) / 3,
            carW: carW.reduce(0, +) / 3,
            priceMinor: prices.slot(startMs: startMs, nowMs: nowMs, late: late)?.totalMinor
        )
    }

    private func batteryW(_ slot: Forecast, mode: ModeKey, meanPrice: Double, storedWh: Double) -> Double {
        let hours = Double(Self.slotMs) / 3_600_000
        let selfConsuming = -(slot.loadW + slot.pvW)
        let wanted: Double
        switch mode {
        case .idle: wanted = 0
        case .charge: wanted = HouseModel.batteryMaxW
        case .plannerPassiveArbitrage, .plannerArbitrage, .plannerSelf, .plannerCheap:
            guard let price = slot.priceMinor.map(Double.init) else {
                wanted = selfConsuming
                break
            }
            if price < Self.cheapShare * meanPrice, storedWh < 0.95 * HouseModel.batteryCapacityWh {
                wanted = 3000
            } else if price > Self.expensiveShare * meanPrice {
                wanted = selfConsuming
            } else {
                wanted = max(0, selfConsuming)
            }
        default: wanted = selfConsuming
        }
        return HouseModel.bounded(wanted, storedWh: storedWh, hours: hours)
    }

    /// The slot on the wire, its reason picked by the box's rules in their order.
    private func slot(
        _ slot: Forecast,
        batteryW: Double,
        storedWh: Double,
        meanPrice: Double,
        lowestWh: Double
    )
        -> PlanSlot
    {
        let battery = Int64(DayLedger.watts(batteryW))
        let production = Int64(DayLedger.watts(slot.loadW)) + Int64(DayLedger.watts(slot.pvW))
        let grid = production + battery + Int64(DayLedger.watts(slot.carW))
        let expensive = slot.priceMinor.map { Double($0) > Self.expensiveShare * meanPrice } ?? false
        let atReserve = storedWh <= lowestWh + 0.005 * HouseModel.batteryCapacityWh
        let reason = Self.reason(
            batteryW: battery,
            gridW: grid,
            loadPlusPVW: production,
            isExpensive: expensive,
            isAtReserve: atReserve,
            ceilingW: ceilingW
        )
        return PlanSlot(
            startMs: slot.startMs,
            durationMs: Self.slotMs,
            batteryW: battery,
            gridW: grid,
            priceMinor: slot.priceMinor,
            reason: reason
        )
    }

    /// The box's reason for a slot (§6), in the box's order: the ceiling first, then charging, discharging, and
    /// the idle cases.
    static func reason(
        batteryW: Int64,
        gridW: Int64,
        loadPlusPVW: Int64,
        isExpensive: Bool,
        isAtReserve: Bool,
        ceilingW: Int64?
    ) -> PlanReason {
        if let ceilingW, loadPlusPVW > ceilingW, batteryW < -idleGateW { return .peakShaving }
        if batteryW > idleGateW {
            return loadPlusPVW < -idleGateW && gridW <= gridThresholdW ? .solarSurplus : .cheapImport
        }
        if batteryW < -idleGateW { return gridW < -gridThresholdW ? .exportPaid : .expensiveImport }
        if isExpensive && isAtReserve { return .reserveHeld }
        return gridW < -gridThresholdW ? .exportPaid : .idle
    }
}
