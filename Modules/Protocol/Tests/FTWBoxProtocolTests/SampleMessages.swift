import FTWBoxProtocol

/// One realistic instance of every message, shaped like what the box and the Swift client send (§2).
enum SampleMessages {
    static let uptimeMs: Int64 = 86_400_123
    static let quarterStart: Int64 = 1_760_000_400_000

    static let hello = Hello(app: AppInfo(build: "2026.8.1 (412)"), locales: ["sv", "en"], sub: Sub(hz: 1))

    static let helloOK = HelloOK(
        proto: 1,
        mode: "full",
        box: BoxInfo(id: "ftw-7f3a", build: "v1.14.2", tz: "Europe/Stockholm"),
        clock: ClockInfo(syncedAtMs: 0, uptimeMs: uptimeMs),
        caps: [
            .statusCore, .cmdLease, .cmdPrecondition, .cmdReadback, .planDispatch, .history5m, .history1h,
            .historyEtag, .derEV, .priceSpot, .apiPassthrough,
        ],
        capsHash: "3f9c1a0e5b7d2c48",
        modes: [
            ModeInfo(
                key: "planner_arbitrage",
                label: "Smart",
                tooltip: "Buys cheap, avoids expensive",
                tier: "primary"
            ),
            ModeInfo(key: "self_consumption", label: "Self use", tooltip: "Battery covers the house", tier: "advanced"),
        ],
        role: .owner,
        scopes: Scope.all,
        subscribed: true
    )

    static let bootingHelloOK = HelloOK(
        proto: 1,
        mode: "booting",
        box: BoxInfo(id: "ftw-7f3a", build: "v1.14.2", tz: "UTC"),
        clock: ClockInfo(source: "none", syncedAtMs: 0, uptimeMs: 5_000),
        caps: [.statusCore],
        capsHash: "0000000000000000",
        modes: [],
        boot: BootProgress(phase: "vacuum", pct: 40),
        hint: "app_update",
        role: .viewer,
        scopes: [.liveRead]
    )

    static let sources: [String: SourceInfo] = [
        "p1_meter": SourceInfo(name: "p1_meter", lastOkMs: uptimeMs - 800, staleAfterMs: 60_000, state: .live),
        "sungrow": SourceInfo(name: "sungrow", lastOkMs: uptimeMs - 95_000, staleAfterMs: 60_000, state: .lagging),
        "easee": SourceInfo(name: "easee", lastOkMs: 0, staleAfterMs: 60_000, state: .never),
    ]

    static let snap = Snap(
        uptimeMs: uptimeMs,
        controlRev: 12,
        dict: [
            FieldID.mode: FieldDef(name: "mode", unit: nil, srcId: nil),
            FieldID.grid: FieldDef(name: "grid_w", unit: "W", srcId: "p1_meter"),
            FieldID.pv: FieldDef(name: "pv_w", unit: "W", srcId: "p1_meter"),
            FieldID.battery: FieldDef(name: "battery_w", unit: "W", srcId: "p1_meter"),
            FieldID.batterySoc: FieldDef(name: "battery_soc", unit: "permille", srcId: "p1_meter"),
            FieldID.load: FieldDef(name: "load_w", unit: "W", srcId: "p1_meter"),
            FieldID.ev: FieldDef(name: "ev_w", unit: "W", srcId: nil),
        ],
        fields: [1: 3, 2: -4200, 3: -6200, 4: 1500, 5: 875, 6: 500, 10: 0],
        sources: sources,
        dispatchBlockedBy: []
    )

    static let delta = Delta(
        seq: 42,
        uptimeMs: uptimeMs + 1_000,
        fields: [2: 11_400, 6: 9_900],
        sources: sources,
        dispatchBlockedBy: ["p1_meter"]
    )

    /// A quarter-hour slot: charging from the grid every third slot, exporting otherwise, a few unpriced.
    static func planSlot(_ index: Int) -> PlanSlot {
        let charging = index.isMultiple(of: 3)
        let start = quarterStart + Int64(index) * 900_000
        let price: Int64? = index.isMultiple(of: 7) ? nil : Int64(80 + index)
        return PlanSlot(
            startMs: start,
            batteryW: charging ? 2_500 : -1_800,
            gridW: charging ? 3_100 : -400,
            priceMinor: price,
            reason: charging ? .cheapImport : .exportPaid
        )
    }

    static func priceSlot(_ index: Int) -> PriceSlot {
        let spot = Int64(40 + index % 20)
        return PriceSlot(
            startMs: quarterStart + Int64(index) * 900_000,
            durationMs: 900_000,
            spotMinor: spot,
            totalMinor: spot + 72
        )
    }

    /// 144 five-minute points of one series, every eleventh missing.
    static func column(_ series: Int) -> [Int32] {
        (0..<144).map { point -> Int32 in
            point.isMultiple(of: 11) ? TileData.missing : Int32(series * 1000 - point * 7)
        }
    }

    static let plan = Plan(
        rev: 31,
        uptimeMs: uptimeMs,
        slots: (0..<96).map(planSlot),
        stale: false,
        ceilingW: 11_000
    )

    static let price = Price(
        zone: "SE3",
        slots: (0..<96).map(priceSlot),
        stale: true
    )

    static let tileData = TileData.encode((0..<4).map(column))

    static let histChunk = HistChunk(
        tileId: "5m/1/40740",
        etag: Etag.of(tileData),
        res: .fiveMinutes,
        startMs: 1_759_968_000_000,
        stepMs: 300_000,
        series: ["grid_w", "pv_w", "battery_w", "load_w"],
        data: tileData,
        partial: true
    )

    static let command = Command(
        cmdId: "0192f2a0-7c1e-7000-8000-0123456789ab",
        op: .loadpointHold,
        args: ["id": "garage", "power_w": 7_400, "hold_s": 3_600, "phase_mode": "3p"],
        notValidAfterMs: uptimeMs + 120_000,
        expect: Expect(rev: 12, guards: [Guard(fid: 5, op: .greaterThanOrEqual, value: 200.5)])
    )

    static let all: [Message] = [
        .hello(hello),
        .helloOK(helloOK),
        .helloOK(bootingHelloOK),
        .sub(Sub(bucket: 256, hz: 0.2)),
        .snap(snap),
        .delta(delta),
        .delta(Delta(seq: 43, uptimeMs: uptimeMs + 2_000, fields: [2: 11_300])),
        .tick(Tick(seq: 44, uptimeMs: uptimeMs + 3_000)),
        .planGet,
        .plan(plan),
        .plan(Plan(rev: 0, uptimeMs: uptimeMs, slots: [], stale: true)),
        .priceGet(PriceGet(fromMs: quarterStart, toMs: quarterStart + 86_400_000)),
        .price(price),
        .histQuery(
            HistQuery(
                series: ["grid_w", "pv_w", "battery_w", "load_w"],
                res: .fiveMinutes,
                fromMs: 1_759_827_600_000,
                toMs: 1_760_000_000_000,
                have: [HaveEntry(tileId: "5m/1/40737", etag: "c8fff215")],
                maxPoints: 1500
            )
        ),
        .histChunk(histChunk),
        .histEnd(HistEnd(resActual: .hour, gaps: [HistGap(fromMs: 0, toMs: 1_700_000_000_000, reason: .evicted)])),
        .apiReq(
            APIRequest(
                method: "PUT",
                path: "/api/loadpoints/garage/schedule",
                query: ["days": "7", "verbose": "1"],
                requestBody: Array(#"{"soc":80,"recurring":true}"#.utf8),
                stepUp: true
            )
        ),
        .apiReq(APIRequest(method: "GET", path: "/api/loadpoints")),
        .apiHead(APIHead(status: 200, headers: ["Content-Type": "application/json", "ETag": "\"abc\""], len: nil)),
        .apiChunk(APIChunk(seq: 0, data: Array(repeating: 0x7b, count: APIChunk.chunkBytes))),
        .apiEnd(APIEnd(bytes: 12_288, truncated: false)),
        .cmd(command),
        .cmdAck(CommandAck(cmdId: command.cmdId, leaseId: "lease-9", expiresAtMs: uptimeMs + 900_000)),
        .cmdResult(
            CommandResult(
                cmdId: command.cmdId,
                state: .applied,
                observed: Observed(value: 7_400, src: "easee", uptimeMs: uptimeMs + 4_000)
            )
        ),
        .cmdResult(
            CommandResult(
                cmdId: command.cmdId,
                state: .rejected,
                error: ErrorBody(code: .conflict, args: ["expected": 12, "actual": 13])
            )
        ),
        .event(
            BoxEvent(
                eventId: "ev-1",
                kind: "meter_offline",
                severity: "warn",
                uptimeMs: uptimeMs,
                args: ["src": "p1_meter"]
            )
        ),
        .error(ErrorBody(code: .unavailable, retryAfterMs: 250, args: ["subsystem": "api", "reason": "busy"])),
        .error(ErrorBody(code: .unknownOp, args: ["t": "price.get"])),
        .sessionTerminate(SessionTerminate(reason: .revoked)),
        .unknown(type: "plan.v2"),
    ]
}
