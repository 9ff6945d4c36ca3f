import FTWBoxProtocol
import Testing

/// How bodies are read (§1.5): whole milliseconds, any number where the box declares float64, null versus absent,
/// defaults, unknown keys, and a typed error naming the field for everything else.
@Suite struct MessageDecodingTests {
    func message(_ type: String, _ body: CBOR?) throws -> Message {
        try Message(envelope: Envelope(type: type, body: body))
    }

    func failure(_ type: String, _ body: CBOR?) throws -> ProtocolError {
        try #require(throws: ProtocolError.self) { try message(type, body) }
    }

    /// A body that must fail on one field.
    struct BadBody: Sendable, CustomTestStringConvertible {
        let type: String
        let body: CBOR
        let code: ProtocolError.Code
        let field: String
        var testDescription: String { field }
    }

    static func bad(_ type: String, _ body: CBOR, _ code: ProtocolError.Code, _ field: String) -> BadBody {
        BadBody(type: type, body: body, code: code, field: field)
    }

    static let badBodies: [BadBody] = [
        bad("tick", ["seq": "1", "uptimeMs": 5], .wrongType, "tick.seq"),
        bad("tick", ["seq": 1.0, "uptimeMs": 5], .wrongType, "tick.seq"),
        bad("tick", ["seq": -1, "uptimeMs": 5], .badField, "tick.seq"),
        bad("tick", ["seq": 1, "uptimeMs": 5.0], .notWholeMilliseconds, "tick.uptimeMs"),
        bad("tick", ["seq": 1, "uptimeMs": 5.5], .notWholeMilliseconds, "tick.uptimeMs"),
        bad("tick", ["seq": 1], .missingField, "tick.uptimeMs"),
        bad("tick", ["seq": 1, "uptimeMs": .null], .wrongType, "tick.uptimeMs"),
        bad("tick", ["seq": 1, "uptimeMs": .unsigned(.max)], .badField, "tick.uptimeMs"),
        bad("tick", [1, 2], .wrongType, "tick"),
        bad("plan", ["rev": 1, "uptimeMs": 2, "slots": [], "stale": 1, "ceilingW": .null], .wrongType, "plan.stale"),
        bad("plan", ["rev": 1, "uptimeMs": 2, "slots": ["x"], "stale": true], .wrongType, "plan.slots[0]"),
        bad("plan", ["rev": 1, "uptimeMs": 2, "slots": [:], "stale": true], .wrongType, "plan.slots"),
        bad(
            "plan",
            ["rev": 1, "uptimeMs": 2, "slots": [["startMs": 1.5]], "stale": true],
            .notWholeMilliseconds,
            "plan.slots[0].startMs"
        ),
        bad("hist.query", ["series": ["grid_w"], "res": "15m", "fromMs": 1, "toMs": 2], .badField, "hist.query.res"),
        bad(
            "hist.chunk",
            [
                "tileId": "x", "etag": "y", "res": "5m", "startMs": 0, "stepMs": 1, "series": [], "data": "AA==",
                "partial": false,
            ],
            .wrongType,
            "hist.chunk.data"
        ),
        bad("api.chunk", ["seq": .unsigned(0x1_0000_0000), "data": .bytes([])], .badField, "api.chunk.seq"),
        bad(
            "api.head",
            ["status": 200, "headers": ["Content-Type": 1], "len": .null],
            .wrongType,
            "api.head.headers.Content-Type"
        ),
        bad("api.head", ["status": 200, "headers": [1: "x"], "len": .null], .wrongType, "api.head.headers"),
        bad("cmd", ["op": "site.mode.set"], .missingField, "cmd.cmdId"),
        bad(
            "cmd.result",
            ["cmdId": "c", "state": "applied", "observed": ["value": "1", "src": "core", "uptimeMs": 1]],
            .wrongType,
            "cmd.result.observed.value"
        ),
        bad("sub", ["bucket": 512, "hz": "fast"], .wrongType, "sub.hz"),
        bad("error", ["code": "E_X", "retryable": false, "args": [1]], .wrongType, "error.args"),
    ]

    @Test(arguments: badBodies)
    func refusesAWrongFieldNamingIt(_ bad: BadBody) throws {
        let error = try failure(bad.type, bad.body)
        #expect(error.code == bad.code)
        #expect(error.field == bad.field)
        #expect(error.message.hasPrefix(bad.field))
    }

    @Test func refusesAHelloOKWhoseClockIsAFloat() throws {
        var body = try #require(Message.helloOK(SampleMessages.helloOK).body?.mapValue)
        body["clock"] = ["source": "ntp", "syncedAtMs": 0, "uptimeMs": .float(86_400_123)]
        let error = try failure("hello_ok", .map(body))
        #expect(error.code == .notWholeMilliseconds)
        #expect(error.field == "hello_ok.clock.uptimeMs")
    }

    @Test func refusesAMessageThatNeedsABodyWithoutOne() throws {
        #expect(try failure("tick", nil).code == .missingField)
        #expect(try message("plan.get", nil) == .planGet)
        #expect(try message("plan.get", ["ignored": true]) == .planGet)
    }

    @Test func keepsAnUnknownTypeAsUnknown() throws {
        #expect(try message("plan.v2", ["horizonMs": 3_600_000]) == .unknown(type: "plan.v2"))
    }

    @Test func readsFieldIDsFromTextOrIntegerKeys() throws {
        let delta = try message("delta", ["seq": 1, "uptimeMs": 2, "fields": ["2": -4200, 10: 7]])
        #expect(delta == .delta(Delta(seq: 1, uptimeMs: 2, fields: [2: -4200, 10: 7])))
    }

    static let badFieldMaps: [CBOR] = [
        ["2": 1, 2: 1], ["x": 1], ["-2": 1], ["+2": 1], ["": 1], [.negative(1): 1], ["2": 1.5],
        ["99999999999999999999": 1],
    ]
    static let badFieldMapCodes: [ProtocolError.Code] = [
        .duplicateKey, .badField, .badField, .badField, .badField, .wrongType, .wrongType, .badField,
    ]

    @Test(arguments: zip(badFieldMaps, badFieldMapCodes))
    func refusesABadFieldMap(_ fields: CBOR, _ code: ProtocolError.Code) throws {
        #expect(try failure("delta", ["seq": 1, "uptimeMs": 2, "fields": fields]).code == code)
    }

    /// A field map with more than one fault is refused for the one met first when every id (bad or repeated) is
    /// checked before any value, and the error names that field.
    @Test func refusesAFieldMapWithSeveralFaultsForTheFirstIdFaultBeforeAnyValueFault() throws {
        let cases: [(fields: CBOR, code: ProtocolError.Code, field: String, message: String)] = [
            (["2": 1.5, 2: 1], .duplicateKey, "delta.fields", "delta.fields: field id 2 appears twice"),
            (["2": 1.5, "x": 1], .badField, "delta.fields", "delta.fields: field id \"x\" is not a decimal number"),
            (
                ["2": 1, "3": "a", "4": 1.5], .wrongType, "delta.fields.3",
                "delta.fields.3: expected an integer, found text"
            ),
            (
                ["2": 1, "07": .unsigned(.max), "4": "a"], .badField, "delta.fields.7",
                "delta.fields.7: 18446744073709551615 does not fit int64"
            ),
        ]
        for (fields, code, field, message) in cases {
            let error = try failure("delta", ["seq": 1, "uptimeMs": 2, "fields": fields])
            #expect(error.code == code)
            #expect(error.field == field)
            #expect(error.message == message)
        }
    }

    @Test func readsTheBoxesFloat64FieldsFromAnyNumber() throws {
        let halfOne = try message(
            "cmd.result",
            ["cmdId": "c", "state": "applied", "observed": ["value": .float(1), "src": "core", "uptimeMs": 9]]
        )
        #expect(
            halfOne
                == .cmdResult(
                    CommandResult(cmdId: "c", state: .applied, observed: Observed(value: 1, src: "core", uptimeMs: 9))
                )
        )
        let integerGuard = try Guard(body: ["fid": 5, "op": "lt", "value": 900])
        #expect(integerGuard.value == 900)
        #expect(try Sub(body: ["bucket": 512, "hz": .float(0.2)]).hz == 0.2)
        #expect(try Sub(body: ["bucket": 512, "hz": -3]).hz == -3)
    }

    @Test func keepsNullApartFromAValue() throws {
        let slot = try PlanSlot(body: [
            "startMs": 1, "durationMs": 2, "batteryW": 3, "gridW": 4, "priceMinor": .null, "reason": "idle",
        ])
        #expect(slot.priceMinor == nil)
        let plan = try Plan(body: ["rev": 1, "uptimeMs": 2, "slots": .null, "stale": true, "ceilingW": .null])
        #expect(plan.ceilingW == nil)
        #expect(plan.slots.isEmpty)
        #expect(
            try Plan(body: ["rev": 1, "uptimeMs": 2, "slots": [], "stale": true, "ceilingW": 9000]).ceilingW == 9000
        )
        #expect(try APIHead(body: ["status": 200, "headers": [:], "len": .null]).len == nil)
        #expect(try APIHead(body: ["status": 200, "headers": [:], "len": 17]).len == 17)
        let def = try FieldDef(body: ["name": "mode", "unit": .null, "srcId": .null])
        #expect(def == FieldDef(name: "mode", unit: nil, srcId: nil))
        #expect(try BootProgress(body: ["phase": "vacuum", "pct": 5, "etaMs": .null]).etaMs == nil)
    }

    @Test func fillsTheDefaultsTheSwiftClientFills() throws {
        let planSlot = try PlanSlot(body: ["startMs": 1, "batteryW": 0, "gridW": 0, "priceMinor": 5, "reason": "idle"])
        #expect(planSlot.durationMs == 900_000)
        let price = try Price(
            body: ["zone": "SE3", "slots": [["startMs": 1, "spotMinor": 2, "totalMinor": 3]], "stale": false]
        )
        #expect(price.currency == "SEK")
        #expect(price.slots.first?.durationMs == 3_600_000)
    }

    @Test func readsADeltaSourceTableWithoutItsEmptyBlockedList() throws {
        let source: CBOR = ["kind": "driver", "name": "m", "lastOkMs": 1, "staleAfterMs": 60_000, "state": "down"]
        let withSources = try Delta(body: ["seq": 1, "uptimeMs": 2, "fields": [:], "sources": ["m": source]])
        #expect(withSources.dispatchBlockedBy == [])
        #expect(withSources.sources?["m"]?.state == .down)
        let without = try Delta(body: ["seq": 1, "uptimeMs": 2, "fields": [:]])
        #expect(without.sources == nil)
        #expect(without.dispatchBlockedBy == nil)
    }

    @Test func ignoresUnknownKeysAtEveryLevel() throws {
        var body = try #require(Message.snap(SampleMessages.snap).body?.mapValue)
        body["fromTheFuture"] = [1, 2, 3]
        var sources = try #require(body["sources"]?.mapValue)
        var meter = try #require(sources["p1_meter"]?.mapValue)
        meter["voltage"] = 230
        sources["p1_meter"] = .map(meter)
        body["sources"] = .map(sources)
        #expect(try message("snap", .map(body)) == .snap(SampleMessages.snap))
    }

    @Test func keepsNamesThisBuildHasNeverHeardOf() throws {
        let result = try CommandResult(body: ["cmdId": "c", "state": "deferred"])
        #expect(result.state == "deferred")
        #expect(result.state.rawValue == "deferred")
        let error = try ErrorBody(body: ["code": "E_FROM_THE_FUTURE", "retryable": true])
        #expect(error.code == ErrorCode("E_FROM_THE_FUTURE"))
        #expect(error.retryable)
        #expect(!error.code.isRetryable)
    }
}
