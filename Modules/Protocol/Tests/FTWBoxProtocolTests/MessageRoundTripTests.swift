import FTWBoxProtocol
import FTWFixtures
import FTWTestingTraits
import Testing

/// Every message through frame bytes and back, on its lane, in its sender's key order.
@Suite struct MessageRoundTripTests {
    static let boxTypes: Set<String> = [
        "hello_ok", "snap", "delta", "tick", "plan", "price", "hist.chunk", "hist.end", "api.head", "api.chunk",
        "api.end", "cmd.ack", "cmd.result", "event", "error", "session.terminate",
    ]

    @Test func coversAllTwentyThreeMessageTypes() {
        let types = Set(SampleMessages.all.map(\.type)).subtracting(["plan.v2"])
        #expect(types.count == 23)
    }

    @Test(arguments: Sample.all)
    func comesBackEqualFromItsFrameBytes(_ sample: Sample) throws {
        let message = sample.message
        let bytes = try FrameCodec.encode(message, id: 77)
        let decoded = try FrameCodec.decode(bytes)
        #expect(decoded.message == message)
        #expect(decoded.envelope.id == 77)
        #expect(decoded.envelope.type == message.type)
        #expect(decoded.frame.lane == message.lane)
        #expect(decoded.frame.bucket == bytes.count)
    }

    @Test(arguments: Sample.all)
    func travelsOnTheLaneOfTheSpecTable(_ sample: Sample) throws {
        let message = sample.message
        let bulk: Set<String> = [
            "hello_ok", "snap", "plan", "price", "hist.chunk", "hist.end", "api.head", "api.chunk", "api.end",
            "hist.query", "plan.get", "price.get", "api.req",
        ]
        #expect(message.lane == (bulk.contains(message.type) ? .bulk : .control))
        let payload = message.envelope(id: nil).encoded()
        let bytes = try FrameCodec.encode(message, id: nil)
        #expect(bytes.count == (message.lane == .control ? 512 : Frame.bulkBucket(forPayload: payload.count)))
    }

    @Test func usesTheSessionsControlBucket() throws {
        let tick = Message.tick(Tick(seq: 1, uptimeMs: 2))
        #expect(try FrameCodec.encode(tick, id: nil, controlBucket: 256).count == 256)
        #expect(try FrameCodec.encode(.planGet, id: 1, controlBucket: 256).count == 1024)
    }

    @Test(arguments: Sample.all.filter { boxTypes.contains($0.message.type) })
    func writesBoxBodiesInCoreDeterministicOrder(_ sample: Sample) throws {
        let message = sample.message
        let body = try #require(message.body)
        #expect(CBOREncoder(keyOrder: .asGiven).encode(body) == CBOREncoder(keyOrder: .deterministic).encode(body))
    }

    @Test func writesAppBodiesInTheOrderOfTheSpecTables() throws {
        let keys = { (message: Message) in message.body?.mapValue?.entries.compactMap(\.key.string) }
        #expect(keys(.hello(SampleMessages.hello)) == ["proto", "app", "locales", "sub"])
        #expect(keys(.cmd(SampleMessages.command)) == ["cmdId", "op", "args", "notValidAfterMs", "expect"])
        #expect(
            keys(SampleMessages.all.first { $0.type == "hist.query" }!)
                == ["series", "res", "fromMs", "toMs", "have", "maxPoints"]
        )
        #expect(
            keys(SampleMessages.all.first { $0.type == "api.req" }!)
                == ["method", "path", "query", "body", "maxBytes", "stepUp"]
        )
        #expect(keys(.priceGet(PriceGet(fromMs: 1, toMs: 2))) == ["fromMs", "toMs"])
        #expect(keys(.apiReq(APIRequest(method: "GET", path: "/api/x", maxBytes: nil))) == ["method", "path"])
    }

    @Test func leavesOmitemptyFieldsOutWhenEmpty() throws {
        let quiet = try #require(Message.delta(Delta(seq: 1, uptimeMs: 2, fields: [:])).body?.mapValue)
        #expect(quiet.entries.compactMap(\.key.string) == ["seq", "fields", "uptimeMs"])
        let booting = try #require(Message.helloOK(SampleMessages.bootingHelloOK).body)
        #expect(booting["subscribed"] == nil)
        #expect(booting["boot"]?["etaMs"] == CBOR.null)
        let error = try #require(Message.error(ErrorBody(code: .noAck)).body)
        #expect(error == ["code": "E_NO_ACK", "retryable": true])
    }

    @Test func writesNullNotAbsenceForTheBoxesPointerFields() throws {
        let plan = try #require(Message.plan(SampleMessages.plan).body)
        #expect(plan["slots"]?.arrayValue?.first?["priceMinor"] == CBOR.null)
        #expect(Plan(rev: 0, uptimeMs: 0, slots: [], stale: true).body["ceilingW"] == CBOR.null)
        #expect(APIHead(status: 204, headers: [:]).body["len"] == CBOR.null)
        #expect(FieldDef(name: "mode", unit: nil, srcId: nil).body == ["name": "mode", "unit": .null, "srcId": .null])
    }

    @Test func writesFieldIDsAsDecimalTextKeys() throws {
        let snap = try #require(Message.snap(SampleMessages.snap).body)
        let fields = try #require(snap["fields"]?.mapValue)
        #expect(fields.entries.map(\.key) == ["1", "2", "3", "4", "5", "6", "10"])
        #expect(snap["dict"]?["10"]?["name"] == "ev_w")
    }

    @Test func writesTheHiddenCadenceAsASixtyFourBitDouble() throws {
        let bytes = CBOREncoder().encode(Sub(bucket: 512, hz: 0.2).body)
        #expect(Vectors.hex(bytes).hasSuffix("62687a" + "fb3fc999999999999a"))
        #expect(Vectors.hex(CBOREncoder().encode(Sub(bucket: 512, hz: 1).body)).hasSuffix("62687a01"))
    }

    @Test func writesAReadBackValueAsTheBoxWritesAFloat64() {
        let body = Observed(value: 1, src: "core", uptimeMs: 5).body
        #expect(Vectors.hex(CBOREncoder().encode(body)).hasPrefix("a36576616c7565f93c00"))
    }

    @Test func refusesAMessageTooBigForTheLargestBulkBucket() {
        let huge = Message.apiChunk(APIChunk(seq: 0, data: Array(repeating: 0, count: 16_370)))
        #expect(thrownCode { try FrameCodec.encode(huge, id: 1) } == .oversized)
        let wideCommand = Message.cmd(
            Command(
                cmdId: "x",
                op: .siteModeSet,
                args: ["pad": .bytes(Array(repeating: 0, count: 300))],
                notValidAfterMs: 1,
                expect: Expect(rev: 1)
            )
        )
        #expect(thrownCode { try FrameCodec.encode(wideCommand, id: nil, controlBucket: 256) } == .oversized)
        #expect(thrownCode { try FrameCodec.encode(wideCommand, id: nil, controlBucket: 300) } == .badFrame)
    }

    @Test(.ownThread, arguments: Sample.all)
    func refusesEveryProperPrefixOfItsEnvelopeAsTruncated(_ sample: Sample) {
        let message = sample.message
        let payload = message.envelope(id: 5).encoded()
        let step = max(1, payload.count / 400)
        for length in stride(from: 0, to: payload.count, by: step) {
            #expect(thrownCode { try Envelope.decode(Array(payload.prefix(length))) } == .truncated, "\(length)")
        }
    }
}

/// A sample message, named in test output by its wire type instead of its whole dump.
struct Sample: Sendable, CustomTestStringConvertible {
    let message: Message
    var testDescription: String { message.type }

    static let all = SampleMessages.all.map(Sample.init)
}
