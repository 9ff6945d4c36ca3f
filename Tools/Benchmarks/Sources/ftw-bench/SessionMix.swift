import FTWBoxProtocol

/// The CBOR envelopes a five-minute stay carries, box to app, in the order it sends them: `hello_ok`, the `snap`,
/// the plan and prices, a 24-hour history answer (four tiles and the end), an API passthrough answer, and 300 s of
/// 1 Hz live frames (a delta each second, a tick when nothing moved, the source table every tenth second).
///
/// The messages are the shapes the box sends, built with BoxProtocol's own types and encoded by its own encoder,
/// so the benchmark decodes exactly what the session decodes.
enum SessionMix {
    private static let uptimeMs: Int64 = 86_400_123
    private static let quarterStart: Int64 = 1_760_000_400_000

    /// The envelopes, encoded.
    static func envelopes() -> [[UInt8]] {
        var messages: [Message] = [.helloOK(helloOK), .snap(snap), .plan(plan), .price(price)]
        messages += (0..<4).map { .histChunk(histChunk($0)) }
        messages.append(.histEnd(HistEnd(resActual: .fiveMinutes, gaps: [])))
        messages.append(.apiHead(APIHead(status: 200, headers: ["Content-Type": "application/json"], len: 14_000)))
        messages.append(.apiChunk(APIChunk(seq: 0, data: Array(repeating: 0x7b, count: APIChunk.chunkBytes))))
        messages.append(.apiChunk(APIChunk(seq: 1, data: Array(repeating: 0x7d, count: 1_712))))
        messages.append(.apiEnd(APIEnd(bytes: 14_000)))
        messages += (1...300).map(live)
        return messages.enumerated().map { index, message in message.envelope(id: UInt32(index)).encoded() }
    }

    /// Second `second` of the live stream: what moved, as the box reports it.
    private static func live(_ second: Int) -> Message {
        let seq = UInt64(second)
        let time = uptimeMs + Int64(second) * 1_000
        guard !second.isMultiple(of: 6) else { return .tick(Tick(seq: seq, uptimeMs: time)) }
        var fields: [Int: Int64] = [2: Int64(-4_200 + second * 13), 6: Int64(500 + second % 90)]
        if second.isMultiple(of: 2) { fields[3] = Int64(-6_200 + second * 7) }
        if second.isMultiple(of: 5) { fields[4] = Int64(1_500 - second) }
        let withTable = second.isMultiple(of: 10)
        return .delta(
            Delta(
                seq: seq,
                uptimeMs: time,
                fields: fields,
                sources: withTable ? sources(at: time) : nil,
                dispatchBlockedBy: withTable ? [] : nil
            )
        )
    }

    private static func sources(at time: Int64) -> [String: SourceInfo] {
        [
            "p1_meter": SourceInfo(name: "p1_meter", lastOkMs: time - 800, staleAfterMs: 60_000, state: .live),
            "sungrow": SourceInfo(name: "sungrow", lastOkMs: time - 4_000, staleAfterMs: 60_000, state: .live),
            "easee": SourceInfo(name: "easee", lastOkMs: time - 95_000, staleAfterMs: 60_000, state: .lagging),
        ]
    }

    private static let helloOK = HelloOK(
        proto: 1,
        mode: "full",
        box: BoxInfo(id: "ftw-7f3a", build: "v1.14.2", tz: "Europe/Stockholm"),
        clock: ClockInfo(syncedAtMs: 0, uptimeMs: uptimeMs),
        caps: [.statusCore, .cmdLease, .planDispatch, .history5m, .history1h, .historyEtag, .priceSpot],
        capsHash: "3f9c1a0e5b7d2c48",
        modes: [
            ModeInfo(key: "self_consumption", label: "Self use", tooltip: "Battery covers the house", tier: "primary")
        ],
        role: .owner,
        scopes: Scope.all,
        subscribed: true
    )

    private static let snap = Snap(
        uptimeMs: uptimeMs,
        controlRev: 12,
        dict: [
            FieldID.grid: FieldDef(name: "grid_w", unit: "W", srcId: "p1_meter"),
            FieldID.pv: FieldDef(name: "pv_w", unit: "W", srcId: "sungrow"),
            FieldID.battery: FieldDef(name: "battery_w", unit: "W", srcId: "sungrow"),
            FieldID.batterySoc: FieldDef(name: "battery_soc", unit: "permille", srcId: "sungrow"),
            FieldID.load: FieldDef(name: "load_w", unit: "W", srcId: nil),
            FieldID.ev: FieldDef(name: "ev_w", unit: "W", srcId: "easee"),
        ],
        fields: [2: -4_200, 3: -6_200, 4: 1_500, 5: 875, 6: 500, 10: 0],
        sources: sources(at: uptimeMs)
    )

    private static let plan = Plan(
        rev: 31,
        uptimeMs: uptimeMs,
        slots: (0..<96).map { (index: Int) -> PlanSlot in
            PlanSlot(
                startMs: quarterStart + Int64(index) * 900_000,
                batteryW: index.isMultiple(of: 3) ? 2_500 : -1_800,
                gridW: index.isMultiple(of: 3) ? 3_100 : -400,
                priceMinor: Int64(80 + index),
                reason: index.isMultiple(of: 3) ? .cheapImport : .exportPaid
            )
        },
        stale: false
    )

    private static let price = Price(zone: "SE3", slots: (0..<96).map(priceSlot), stale: false)

    /// Quarter `index` of the day: spot peaks in the morning and the evening; the total adds VAT and the grid fee.
    private static func priceSlot(_ index: Int) -> PriceSlot {
        let hour = index / 4
        let peak = (7..<10).contains(hour) || (17..<21).contains(hour)
        let spot = Int64(peak ? 145 : 38 + hour)
        let start = quarterStart + Int64(index) * 900_000
        return PriceSlot(startMs: start, durationMs: 900_000, spotMinor: spot, totalMinor: spot * 5 / 4 + 61)
    }

    /// Tile `index` of a 24-hour five-minute answer: four series of 144 points.
    private static func histChunk(_ index: Int) -> HistChunk {
        let columns = (0..<4).map { (series: Int) -> [Int32] in
            (0..<144).map { (point: Int) -> Int32 in Int32(series * 1_000 - point * 7 + index) }
        }
        let data = TileData.encode(columns)
        return HistChunk(
            tileId: "5m/1/\(40_740 + index)",
            etag: Etag.of(data),
            res: .fiveMinutes,
            startMs: 1_759_968_000_000 + Int64(index) * 43_200_000,
            stepMs: 300_000,
            series: ["grid_w", "pv_w", "battery_w", "load_w"],
            data: data,
            partial: index == 3
        )
    }
}
