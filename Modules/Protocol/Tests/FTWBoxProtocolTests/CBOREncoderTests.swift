import FTWBoxProtocol
import FTWFixtures
import Testing

/// What the encoder writes beyond Appendix A: key order, float widths, and the numbers §1.5 cares about.
@Suite struct CBOREncoderTests {
    @Test func writesMapsInTheOrderGivenUnlessAskedToSort() {
        let map: CBOR = ["staleAfterMs": 1, "b": 2, "state": 3, "aa": 4]
        #expect(
            Vectors.hex(CBOREncoder().encode(map)) == "a4" + "6c7374616c6541667465724d7301" + "616202"
                + "65737461746503"
                + "62616104"
        )
        // Deterministic: shorter encodings first, then bytewise.
        #expect(
            Vectors.hex(CBOREncoder(keyOrder: .deterministic).encode(map)) == "a4" + "616202" + "62616104"
                + "65737461746503" + "6c7374616c6541667465724d7301"
        )
    }

    @Test func sortsNestedMapsAndNonTextKeysToo() {
        let value: CBOR = ["z": [10: "x", -1: "y", "k": "z"], "a": [["q": 1, "p": 2]]]
        let sorted = CBOREncoder(keyOrder: .deterministic).encode(value)
        #expect(sorted == CBOREncoder().encode(value.inDeterministicOrder))
        #expect(Vectors.hex(sorted) == "a2" + "616181a26170026171" + "01" + "617aa30a617820617961" + "6b617a")
    }

    @Test(arguments: [
        (1.0, "01"), (0.2, "fb3fc999999999999a"), (0.5, "f93800"), (-3.0, "22"), (-0.0, "f98000"),
        (1e20, "fb4415af1d78b58c40"), (4294967296.5, "fb41f0000000080000"), (9007199254740993.0, "1b0020000000000000"),
    ])
    func writesNumbersAsIntegersWhenWholeAndOtherwiseInTheirShortestExactWidth(_ number: Double, _ expected: String) {
        #expect(Vectors.hex(CBOREncoder().encode(.number(number))) == expected)
    }

    @Test(arguments: [
        (Double.nan, "f97e00"), (-Double.nan, "f97e00"), (1.0, "f93c00"), (65504.0, "f97bff"), (65505.0, "fa477fe100"),
        (0x1p-24, "f90001"), (0x1p-25, "fa33000000"), (0x1.8p-24, "fa33c00000"),
        (Double(Float.leastNonzeroMagnitude), "fa00000001"),
        (Double.leastNonzeroMagnitude, "fb0000000000000001"), (Double.greatestFiniteMagnitude, "fb7fefffffffffffff"),
    ])
    func writesFloatsInTheShortestWidthThatHoldsThemExactly(_ number: Double, _ expected: String) {
        #expect(Vectors.hex(CBOREncoder().encode(.float(number))) == expected)
    }

    @Test func writesIntegerHeadsInTheirShortestForm() {
        let cases: [(CBOR, String)] = [
            (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65535, "19ffff"), (65536, "1a00010000"),
            (.unsigned(0xffff_ffff), "1affffffff"), (.unsigned(0x1_0000_0000), "1b0000000100000000"),
            (.int(.min), "3b7fffffffffffffff"), (-24, "37"), (-25, "3818"),
        ]
        for (value, expected) in cases { #expect(Vectors.hex(CBOREncoder().encode(value)) == expected) }
    }

    @Test func readsBackWhatItWrites() throws {
        let value: CBOR = [
            "t": "x", "n": [.int(.min), .unsigned(.max), 0.1, .float(-.infinity), .simple(99), .undefined, .null],
            "b": .bytes(Array(0...255)), "m": [.tagged(1000, [:]): ["deep": [[[1]]]]],
        ]
        for order in [CBOREncoder.KeyOrder.asGiven, .deterministic] {
            #expect(try CBORDecoder().decode(CBOREncoder(keyOrder: order).encode(value)) == value)
        }
    }

    @Test func comparesMapsWhateverTheirOrderButKeepsTheOrderForEncoding() {
        let one: CBOR = ["a": 1, "b": 2]
        let other: CBOR = ["b": 2, "a": 1]
        #expect(one == other)
        #expect(Set([one, other]).count == 1)
        #expect(CBOREncoder().encode(one) != CBOREncoder().encode(other))
        #expect(one != ["a": 1, "b": 3])
    }

    @Test func readsValuesThroughTheAccessors() {
        let value: CBOR = [
            "n": -5, "u": .unsigned(.max), "f": 2.5, "t": "x", "z": .null, "l": [true], "h": .bytes([1]),
        ]
        #expect(value["n"]?.int64 == -5)
        #expect(value["n"]?.uint64 == nil)
        #expect(value["u"]?.int64 == nil)
        #expect(value["u"]?.uint32 == nil)
        #expect(value["f"]?.double == 2.5)
        #expect(value["f"]?.int64 == nil)
        #expect(value["n"]?.double == -5)
        #expect(value["t"]?.string == "x")
        #expect(value["z"]?.isNull == true)
        #expect(value["l"]?.arrayValue?.first?.boolValue == true)
        #expect(value["h"]?.bytesValue == [1])
        #expect(value["missing"] == nil)
        #expect(value.mapValue?.count == 7)
        #expect(CBOR.int(-1) == .negative(0))
    }
}
