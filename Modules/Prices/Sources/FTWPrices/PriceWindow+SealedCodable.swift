public import FTWSealInterface

/// `prices-<site>`: the day, the zone and currency, then each slot's start as the gap after the one before (0 for
/// back-to-back slots, one byte), its length and its two prices.
extension PriceWindow: SealedCodable {
    /// More slots than two days of five-minute slots is no window the box sends.
    static let rateLimit = 2 * 25 * 12

    /// Writes the window.
    public func encode(into writer: inout BinaryWriter) {
        day.encode(into: &writer)
        writer.text(zone)
        writer.text(currency)
        writer.bool(stale)
        writer.count(rates.count)
        var previousEnd = day.startMs
        for rate in rates {
            previousEnd = SlotTiming.write(
                startMs: rate.startMs,
                durationMs: rate.durationMs,
                after: previousEnd,
                to: &writer
            )
            writer.signed(rate.spotMinor)
            writer.signed(rate.totalMinor)
        }
    }

    /// Reads a window back, with the checks the box's answer passes: every slot lasts some time and starts no
    /// earlier than the one before it ends.
    ///
    /// - Throws: `SealedContentError`, `.malformed` for slots that do not add up.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        day = try PriceDay(from: &reader)
        zone = try reader.text(atMost: 64)
        currency = try reader.text(atMost: 16)
        stale = try reader.bool()
        let count = try reader.count(atMost: Self.rateLimit, of: "price slots")
        rates = []
        rates.reserveCapacity(count)
        var previousEnd = day.startMs
        for index in 0..<count {
            let timing = try SlotTiming.read(
                &reader,
                after: previousEnd,
                first: index == 0,
                slot: "price slot \(index)"
            )
            rates.append(
                PriceRate(
                    startMs: timing.startMs,
                    durationMs: timing.durationMs,
                    spotMinor: try reader.signed(),
                    totalMinor: try reader.signed()
                )
            )
            previousEnd = timing.endMs
        }
    }
}

extension PriceDay {
    func encode(into writer: inout BinaryWriter) {
        writer.text(date)
        writer.text(timeZoneID)
        writer.signed(startMs)
        writer.signed(tomorrowMs &- startMs)
        writer.signed(endMs &- tomorrowMs)
    }

    init(from reader: inout BinaryReader) throws(SealedContentError) {
        date = try reader.text(atMost: 32)
        timeZoneID = try reader.text(atMost: 128)
        startMs = try reader.signed()
        let today = try reader.signed()
        let tomorrow = try reader.signed()
        let (tomorrowMs, late) = startMs.addingReportingOverflow(today)
        let (endMs, later) = tomorrowMs.addingReportingOverflow(tomorrow)
        guard !late, !later, today > 0, tomorrow > 0 else {
            throw reader.malformed("a day of \(today) ms followed by one of \(tomorrow) ms")
        }
        self.tomorrowMs = tomorrowMs
        self.endMs = endMs
    }
}
