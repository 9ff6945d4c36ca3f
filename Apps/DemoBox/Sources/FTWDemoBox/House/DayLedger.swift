/// One local day of the ledger, five minutes at a time, as the box would have recorded it running
/// self-consumption: the battery starts each day at 40 % and takes the surplus and covers the deficit.
struct DayLedger: Sendable {
    static let bucketMs: Int64 = 300_000
    static let startOfDayCharge = 0.40

    /// The index (`start / 5 min`) of the day's first bucket.
    let firstBucket: Int64
    let buckets: [LedgerBucket]

    /// The day running from `dayStartMs` to `nextDayStartMs`, built from `house`.
    init(dayStartMs: Int64, nextDayStartMs: Int64, house: HouseModel) {
        firstBucket = Self.ceilDivide(dayStartMs, Self.bucketMs)
        let end = Self.ceilDivide(nextDayStartMs, Self.bucketMs)
        var storedWh = HouseModel.batteryCapacityWh * Self.startOfDayCharge
        var buckets: [LedgerBucket] = []
        buckets.reserveCapacity(Int(max(0, end - firstBucket)))
        for index in firstBucket..<max(firstBucket, end) {
            let bucket = Self.bucket(startMs: index * Self.bucketMs, storedWh: storedWh, house: house)
            storedWh = bucket.storedWh
            buckets.append(bucket)
        }
        self.buckets = buckets
    }

    /// The bucket with index `index`, if it belongs to this day.
    func bucket(index: Int64) -> LedgerBucket? {
        let offset = index - firstBucket
        guard offset >= 0, offset < Int64(buckets.count) else { return nil }
        return buckets[Int(offset)]
    }

    private static func bucket(startMs: Int64, storedWh: Double, house: HouseModel) -> LedgerBucket {
        let samples = (0..<5).map { startMs + 30_000 + Int64($0) * 60_000 }
        let pv = samples.map { house.pvW(atMs: $0) }.reduce(0, +) / 5
        let load = samples.map { house.loadW(atMs: $0) }.reduce(0, +) / 5
        let car = samples.map { house.scheduledCarW(atMs: $0) }.reduce(0, +) / 5
        let hours = Double(bucketMs) / 3_600_000
        let battery = HouseModel.selfConsumingBatteryW(loadW: load, pvW: pv, storedWh: storedWh, hours: hours)
        let (pvW, batteryW, loadW, carW) = (watts(pv), watts(battery), watts(load), watts(car))
        return LedgerBucket(
            gridW: watts(Double(loadW) + Double(batteryW) + Double(pvW) + Double(carW)),
            pvW: pvW,
            batteryW: batteryW,
            loadW: loadW,
            carW: carW,
            storedWh: storedWh + battery * hours
        )
    }

    static func watts(_ value: Double) -> Int32 {
        guard value.isFinite else { return 0 }
        return Int32(max(Double(Int32.min + 1), min(Double(Int32.max), value.rounded())))
    }

    static func ceilDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor > 0 ? quotient + 1 : quotient
    }
}
