import FTWBoxProtocol
import FTWFixtures
import Testing

/// The envelope layer (§1.4), against the eight frames of `webapp-vectors.json`.
@Suite struct EnvelopeTests {
    /// What each vector frame carries, written out by hand from §9.1.
    static let expected: [String: Envelope] = [
        "tick": Envelope(type: "tick", body: ["seq": 41]),
        "tick_no_body": Envelope(type: "tick"),
        "delta_export": Envelope(
            type: "delta",
            body: ["seq": 42, "fields": ["2": -4200, "3": 6200, "4": -1500, "5": 875, "6": 13400]]
        ),
        "delta_truncated": Envelope(type: "delta", body: ["seq": 43, "fields": ["2": 11400]]),
        "cmd_with_id": Envelope(
            type: "cmd",
            id: 7,
            body: [
                "cmdId": "018f3a2b-0000-7000-8000-000000000001", "op": "set_mode", "args": ["mode": "idle"],
                "notValidAfterMs": 1_712_345_678_901, "expect": ["rev": 12, "guards": []],
            ]
        ),
        "unknown_type_with_unknown_keys": Envelope(type: "plan.v2", body: ["horizonMs": 3_600_000]),
        "small_control_bucket": Envelope(type: "tick", body: ["seq": 44]),
        "snap_bulk": Envelope(
            type: "snap",
            id: 3,
            body: [
                "rev": 12, "dict": ["2": ["name": "grid_w", "unit": "W", "srcId": "meter.p1"]],
                "fields": ["2": -4200, "5": 875],
                "sources": ["meter.p1": ["kind": "meter", "lastOkMs": 900, "staleAfterMs": 5000, "state": "live"]],
            ]
        ),
    ]

    @Test(arguments: try FrameVector.all())
    func readsWhatEachVectorFrameCarries(_ vector: FrameVector) throws {
        let envelope = try Envelope.decode(Frame.decode(vector.bytes).payload)
        #expect(envelope == Self.expected[vector.name])
    }

    @Test(arguments: try FrameVector.all().filter { $0.name != "unknown_type_with_unknown_keys" })
    func writesEachVectorFrameByteForByteFromItsValues(_ vector: FrameVector) throws {
        let envelope = try #require(Self.expected[vector.name])
        let frame = Frame(
            lane: try #require(Lane(rawValue: vector.lane)),
            flags: FrameFlags(rawValue: vector.flags),
            payload: envelope.encoded(),
            bucket: vector.bucket
        )
        #expect(Vectors.hex(try frame.encoded()) == Vectors.hex(vector.bytes))
    }

    @Test func ignoresUnknownEnvelopeKeysButKeepsThemInTheRawValue() throws {
        let vector = try #require(try FrameVector.all().first { $0.name == "unknown_type_with_unknown_keys" })
        let raw = try CBORDecoder().decode(vector.payload)
        #expect(raw["futureField"] == "from a newer peer")
        #expect(raw["anotherOne"] == 42)
        #expect(CBOREncoder().encode(raw) == vector.payload)
        #expect(try Envelope.decode(vector.payload).encoded().count < vector.payload.count)
    }

    @Test func reproducesTheSnapVectorOnlyInTheKeyOrderItWasGiven() throws {
        // NOTES.md point 1: the generator kept the order given, which is not the box's sorted order.
        let vector = try #require(try FrameVector.all().first { $0.name == "snap_bulk" })
        let body = try #require(try Envelope.decode(vector.payload).body)
        let givenOrder = CBOREncoder(keyOrder: .asGiven).encode(body)
        let sorted = CBOREncoder(keyOrder: .deterministic).encode(body)
        #expect(Vectors.hex(vector.payload).hasSuffix(Vectors.hex(givenOrder)))
        #expect(givenOrder != sorted)
        #expect(try CBORDecoder().decode(sorted) == body)
        let source = try #require(body["sources"]?["meter.p1"]?.mapValue)
        #expect(source.entries.map(\.key) == ["kind", "lastOkMs", "staleAfterMs", "state"])
    }

    @Test func acceptsTheKeysInAnyOrder() throws {
        let payload = CBOREncoder().encode(["b": ["seq": 1], "id": 9, "t": "tick"])
        #expect(try Envelope.decode(payload) == Envelope(type: "tick", id: 9, body: ["seq": 1]))
    }

    @Test(arguments: [CBOR.int(-1), .unsigned(0x1_0000_0000), "7", 1.0, .null])
    func dropsAnIDThatIsNotAU32(_ id: CBOR) throws {
        let payload = CBOREncoder().encode(["t": "tick", "id": id])
        #expect(try Envelope.decode(payload) == Envelope(type: "tick"))
    }

    @Test func keepsTheLargestU32ID() throws {
        let payload = CBOREncoder().encode(["t": "tick", "id": .unsigned(0xffff_ffff)])
        #expect(try Envelope.decode(payload).id == .max)
    }

    @Test func writesTheKeysInTheOrderTypeIDBody() {
        let bytes = Envelope(type: "plan.get", id: 4).encoded()
        #expect(Vectors.hex(bytes) == "a2617468706c616e2e67657462696404")
        #expect(Vectors.hex(Envelope(type: "x", id: 1, body: [:]).encoded()) == "a3617461786269640161" + "62a0")
    }

    @Test func refusesAnEnvelopeThatIsNotAMap() {
        #expect(thrownCode { try Envelope.decode(hex("816174")) } == .badEnvelope)
        #expect(thrownCode { try Envelope.decode(hex("6474696" + "36b")) } == .badEnvelope)
    }

    @Test func refusesAnEnvelopeWithoutAType() throws {
        let error = try #require(throws: ProtocolError.self) { try Envelope.decode(CBOREncoder().encode(["id": 1])) }
        #expect(error.code == .missingField)
        #expect(error.field == "t")
    }

    @Test func refusesATypeThatIsNotText() {
        #expect(thrownCode { try Envelope.decode(CBOREncoder().encode(["t": 5])) } == .wrongType)
    }

    @Test func refusesBytesAfterTheEnvelope() {
        #expect(thrownCode { try Envelope.decode(hex("a16174647469636b00")) } == .trailingBytes)
    }
}
