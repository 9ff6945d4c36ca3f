import FTWBoxProtocol

/// The box's energy ledger, derived from the house: five-minute buckets from installation on, kept for 30 days at
/// `5m` and rolled into hours for `1h`, read tile by tile the way the box answers `hist.query`.
///
/// Days are built on first use and remembered, so the 48-hour window a phone primes with costs four day builds once.
struct Ledger: Sendable {
    private static let hourBuckets: Int64 = 12
    private static let keptDays = 64

    let house: HouseModel
    /// The first wall-clock instant the box recorded (hour-aligned): older points are MISSING.
    let installedAtMs: Int64
    private var days: [Int64: DayLedger] = [:]

    init(house: HouseModel, installedAtMs: Int64) {
        self.house = house
        self.installedAtMs = installedAtMs - LocalZone.floorMod(installedAtMs, 3_600_000)
    }

    /// One column per series of `tile`, as of `nowMs`: the bucket in progress and everything after it are MISSING,
    /// as is every series the box does not keep.
    mutating func columns(series: [String], tile: TileRef, nowMs: Int64) -> [[Int32]] {
        let points = (0..<tile.points).map { point(tile: tile, index: $0, nowMs: nowMs) }
        return series.map { name in
            points.map { buckets in Self.mean(buckets.compactMap { $0.value(of: name) }) }
        }
    }

    /// The complete buckets recorded in `[fromMs, toMs)` as of `nowMs`: what the daily energy totals add up.
    mutating func completeBuckets(fromMs: Int64, toMs: Int64, nowMs: Int64) -> [LedgerBucket] {
        let first = Self.floorDivide(fromMs + DayLedger.bucketMs - 1, DayLedger.bucketMs)
        let last = Self.floorDivide(toMs - 1, DayLedger.bucketMs)
        guard first <= last else { return [] }
        return (first...last).compactMap {
            completeBucket(startMs: $0 * DayLedger.bucketMs, spanMs: DayLedger.bucketMs, nowMs: nowMs)
        }
    }

    /// The battery's charge at `atMs` as the ledger has it: where the live battery starts.
    mutating func storedWh(atMs: Int64) -> Double {
        bucket(index: Self.floorDivide(atMs, DayLedger.bucketMs))?.storedWh
            ?? HouseModel.batteryCapacityWh * DayLedger.startOfDayCharge
    }

    /// The stored buckets behind one point of a tile: `stride` buckets at 5m, `stride` hours of 12 at 1h.
    private mutating func point(tile: TileRef, index: Int, nowMs: Int64) -> [LedgerBucket] {
        let startMs = tile.startMs + Int64(index) * tile.stepMs
        switch tile.res {
        case .fiveMinutes:
            let retainedFrom = nowMs - HistoryResolution.fiveMinutes.retentionMs
            return (0..<Int64(tile.stride)).compactMap { offset in
                let bucketStart = startMs + offset * DayLedger.bucketMs
                guard bucketStart >= retainedFrom else { return nil }
                return completeBucket(startMs: bucketStart, spanMs: DayLedger.bucketMs, nowMs: nowMs)
            }
        case .hour:
            return (0..<Int64(tile.stride)).compactMap { offset in
                hour(startMs: startMs + offset * 3_600_000, nowMs: nowMs)
            }
        }
    }

    /// An hour of the rollup: the mean of its twelve buckets, once the hour is complete.
    private mutating func hour(startMs: Int64, nowMs: Int64) -> LedgerBucket? {
        guard completeBucket(startMs: startMs, spanMs: 3_600_000, nowMs: nowMs) != nil else { return nil }
        let first = startMs / DayLedger.bucketMs
        let buckets = (first..<first + Self.hourBuckets).compactMap { bucket(index: $0) }
        guard let last = buckets.last else { return nil }
        func mean(_ value: (LedgerBucket) -> Int32) -> Int32 { Self.mean(buckets.map(value)) }
        return LedgerBucket(
            gridW: mean(\.gridW),
            pvW: mean(\.pvW),
            batteryW: mean(\.batteryW),
            loadW: mean(\.loadW),
            carW: mean(\.carW),
            storedWh: last.storedWh
        )
    }

    /// The bucket starting at `startMs`, only once its span is over and if the box was installed by then.
    private mutating func completeBucket(startMs: Int64, spanMs: Int64, nowMs: Int64) -> LedgerBucket? {
        guard startMs >= installedAtMs, startMs + spanMs <= nowMs else { return nil }
        return bucket(index: startMs / DayLedger.bucketMs)
    }

    private mutating func bucket(index: Int64) -> LedgerBucket? {
        let startMs = index * DayLedger.bucketMs
        let dayStart = house.zone.dayStart(atMs: startMs)
        if let day = days[dayStart] { return day.bucket(index: index) }
        if days.count >= Self.keptDays { days.removeAll(keepingCapacity: true) }
        let day = DayLedger(
            dayStartMs: dayStart,
            nextDayStartMs: house.zone.nextDayStart(atMs: startMs),
            house: house
        )
        days[dayStart] = day
        return day.bucket(index: index)
    }

    /// The plain mean of the values present, or MISSING when there are none.
    private static func mean(_ values: [Int32]) -> Int32 {
        guard !values.isEmpty else { return TileData.missing }
        let sum = values.reduce(0.0) { $0 + Double($1) }
        return DayLedger.watts(sum / Double(values.count))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        (value - LocalZone.floorMod(value, divisor)) / divisor
    }
}
