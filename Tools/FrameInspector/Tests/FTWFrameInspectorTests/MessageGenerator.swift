import FTWBoxProtocol

/// Random messages of every type the app or the box sends, each of which survives our own round trip, for the
/// cross-checks against Python's cbor2.
struct MessageGenerator {
    let random: SeededRandom

    /// How many kinds of message ``next()`` makes (every type but unknown ones).
    static let kinds = 23

    /// The `index`-th kind of message, with random contents.
    func message(kind index: Int) -> Message {
        switch index {
        case 0: .hello(hello())
        case 1: .helloOK(helloOK())
        case 2: .sub(sub())
        case 3: .snap(snap())
        case 4: .delta(delta())
        case 5: .tick(Tick(seq: random.uint64(), uptimeMs: random.int64()))
        case 6: .planGet
        case 7: .plan(plan())
        case 8: .priceGet(PriceGet(fromMs: random.int64(), toMs: random.int64()))
        case 9: .price(price())
        case 10: .histQuery(histQuery())
        case 11: .histChunk(histChunk())
        case 12: .histEnd(histEnd())
        case 13: .apiReq(apiRequest())
        case 14:
            .apiHead(APIHead(status: Int(random.int64() % 1000), headers: textMap(), len: optional(random.int64())))
        case 15: .apiChunk(APIChunk(seq: random.number(in: 0...UInt32.max), data: random.bytes(maxCount: 300)))
        case 16: .apiEnd(APIEnd(bytes: random.int64(), truncated: random.chance(50)))
        case 17: .cmd(command())
        case 18: .cmdAck(CommandAck(cmdId: random.text(), leaseId: random.text(), expiresAtMs: random.int64()))
        case 19: .cmdResult(commandResult())
        case 20: .event(boxEvent())
        case 21: .error(errorBody())
        default:
            .sessionTerminate(
                SessionTerminate(
                    reason: TerminateReason(rawValue: random.pick(["revoked", "replaced", random.text()]))
                )
            )
        }
    }

    private func optional<Value>(_ value: @autoclosure () -> Value) -> Value? {
        random.chance(50) ? value() : nil
    }

    private func texts(max: Int = 4) -> [String] {
        (0..<random.number(in: 0...max)).map { _ in random.text() }
    }

    private func textMap() -> [String: String] {
        Dictionary(texts().map { ($0, random.text()) }) { first, _ in first }
    }

    private func list<Element>(max: Int, _ make: () -> Element) -> [Element] {
        (0..<random.number(in: 0...max)).map { _ in make() }
    }

    private func sub() -> Sub {
        Sub(bucket: random.pick(Frame.controlBuckets), hz: random.double())
    }

    private func hello() -> Hello {
        Hello(
            proto: ProtoRange(min: Int(random.int64() % 100), max: Int(random.int64() % 100)),
            app: AppInfo(build: random.text(), ua: random.text()),
            locales: texts(),
            sub: optional(sub())
        )
    }

    private func helloOK() -> HelloOK {
        HelloOK(
            proto: Int(random.int64() % 100),
            mode: random.text(),
            box: BoxInfo(id: random.text(), build: random.text(), tz: random.text()),
            clock: ClockInfo(source: random.text(), syncedAtMs: random.int64(), uptimeMs: random.int64()),
            caps: texts().map { Capability(rawValue: $0) },
            capsHash: random.text(),
            modes: list(max: 3) {
                ModeInfo(key: random.text(), label: random.text(), tooltip: random.text(), tier: random.text())
            },
            boot: optional(
                BootProgress(phase: random.text(), pct: Int(random.int64() % 101), etaMs: optional(random.int64()))
            ),
            hint: optional(random.text()),
            role: Role(rawValue: random.text()),
            scopes: texts().map { Scope(rawValue: $0) },
            subscribed: random.chance(50)
        )
    }

    private func sources() -> [String: SourceInfo] {
        Dictionary(
            texts().map { name in
                (
                    name,
                    SourceInfo(
                        kind: random.text(),
                        name: name,
                        lastOkMs: random.int64(),
                        staleAfterMs: random.int64(),
                        state: SourceState(rawValue: random.text())
                    )
                )
            }
        ) { first, _ in first }
    }

    private func fieldValues() -> [Int: Int64] {
        Dictionary(list(max: 6) { (random.pick([0, 1, 2, 23, 24, 255, 1000, Int(Int32.max)]), random.int64()) }) {
            first,
            _ in first
        }
    }

    private func snap() -> Snap {
        Snap(
            uptimeMs: random.int64(),
            controlRev: random.uint64(),
            dict: Dictionary(
                list(max: 4) {
                    (
                        random.pick([1, 2, 3, 40, 300]),
                        FieldDef(name: random.text(), unit: optional(random.text()), srcId: optional(random.text()))
                    )
                }
            ) { first, _ in first },
            fields: fieldValues(),
            sources: sources(),
            dispatchBlockedBy: texts()
        )
    }

    private func delta() -> Delta {
        Delta(
            seq: random.uint64(),
            uptimeMs: random.int64(),
            fields: fieldValues(),
            sources: optional(sources()),
            dispatchBlockedBy: optional(texts())
        )
    }

    private func plan() -> Plan {
        Plan(
            rev: random.uint64(),
            uptimeMs: random.int64(),
            slots: list(max: 20) {
                PlanSlot(
                    startMs: random.int64(),
                    durationMs: random.int64(),
                    batteryW: random.int64(),
                    gridW: random.int64(),
                    priceMinor: optional(random.int64()),
                    reason: PlanReason(rawValue: random.text())
                )
            },
            stale: random.chance(50),
            ceilingW: optional(random.int64())
        )
    }

    private func price() -> Price {
        Price(
            zone: random.text(),
            currency: random.text(),
            slots: list(max: 20) {
                PriceSlot(
                    startMs: random.int64(),
                    durationMs: random.int64(),
                    spotMinor: random.int64(),
                    totalMinor: random.int64()
                )
            },
            stale: random.chance(50)
        )
    }

    private func histQuery() -> HistQuery {
        HistQuery(
            series: texts(),
            res: random.pick(HistoryResolution.allCases),
            fromMs: random.int64(),
            toMs: random.int64(),
            have: list(max: 3) { HaveEntry(tileId: random.text(), etag: random.text()) },
            maxPoints: optional(Int(random.int64() % 100_000))
        )
    }

    private func histChunk() -> HistChunk {
        let data = random.bytes(maxCount: 64)
        return HistChunk(
            tileId: random.text(),
            etag: Etag.of(data),
            res: random.pick(HistoryResolution.allCases),
            startMs: random.int64(),
            stepMs: random.int64(),
            series: texts(),
            data: data,
            partial: random.chance(50)
        )
    }

    private func histEnd() -> HistEnd {
        HistEnd(
            resActual: random.pick(HistoryResolution.allCases),
            gaps: list(max: 3) {
                HistGap(fromMs: random.int64(), toMs: random.int64(), reason: GapReason(rawValue: random.text()))
            }
        )
    }

    private func apiRequest() -> APIRequest {
        APIRequest(
            method: random.text(),
            path: random.text(),
            query: textMap(),
            requestBody: random.bytes(maxCount: 40),
            maxBytes: optional(random.int64()),
            stepUp: random.chance(50)
        )
    }

    private func command() -> Command {
        Command(
            cmdId: random.text(),
            op: CommandOp(rawValue: random.text()),
            args: random.cborMap(),
            notValidAfterMs: random.int64(),
            expect: Expect(
                rev: random.uint64(),
                guards: list(max: 3) {
                    Guard(fid: Int(random.int64() % 1000), op: GuardOp(rawValue: random.text()), value: random.double())
                }
            )
        )
    }

    private func errorBody() -> ErrorBody {
        ErrorBody(
            code: ErrorCode(rawValue: random.text()),
            retryable: random.chance(50),
            retryAfterMs: optional(random.int64()),
            args: random.cborMap()
        )
    }

    private func commandResult() -> CommandResult {
        CommandResult(
            cmdId: random.text(),
            state: CommandState(rawValue: random.text()),
            observed: optional(Observed(value: random.double(), src: random.text(), uptimeMs: random.int64())),
            error: optional(errorBody())
        )
    }

    private func boxEvent() -> BoxEvent {
        BoxEvent(
            eventId: random.text(),
            kind: random.text(),
            severity: random.text(),
            uptimeMs: random.int64(),
            args: random.cborMap()
        )
    }
}
