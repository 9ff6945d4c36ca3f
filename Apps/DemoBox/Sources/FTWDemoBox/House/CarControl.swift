/// What the charger has been told to do instead of its own schedule: a hold at a fixed power, a boost, or neither.
struct CarControl: Sendable, Hashable {
    /// A fixed charging power, until an uptime or for good.
    struct Hold: Sendable, Hashable {
        var powerW: Double
        /// Box uptime at which the hold lapses; nil holds until cleared.
        var untilUptimeMs: Int64?
    }

    /// Full power with the house battery helping, until a wall-clock time.
    struct Boost: Sendable, Hashable {
        var untilWallMs: Int64
    }

    var hold: Hold?
    var boost: Boost?

    /// The car's power now: a live boost wins, then a live hold, then the schedule.
    func carW(scheduledW: Double, wallMs: Int64, uptimeMs: Int64) -> Double {
        if isBoosting(wallMs: wallMs) { return HouseModel.chargerMaxW }
        if let hold, hold.untilUptimeMs.map({ uptimeMs < $0 }) ?? true { return hold.powerW }
        return scheduledW
    }

    func isBoosting(wallMs: Int64) -> Bool {
        boost.map { wallMs < $0.untilWallMs } ?? false
    }
}
