import FTWBoxProtocol
import FTWFixtures
import Testing

/// Every example of RFC 8949 Appendix A.
@Suite struct CBORAppendixATests {
    struct Example: CustomTestStringConvertible, Sendable {
        let hex: String
        let value: CBOR
        /// Whether the bytes are already what the deterministic encoder writes.
        let deterministic: Bool
        var testDescription: String { hex }
    }

    static func example(_ hex: String, _ value: CBOR, deterministic: Bool = true) -> Example {
        Example(hex: hex, value: value, deterministic: deterministic)
    }

    static let examples: [Example] = [
        example("00", 0), example("01", 1), example("0a", 10), example("17", 23), example("1818", 24),
        example("1819", 25), example("1864", 100), example("1903e8", 1000), example("1a000f4240", 1_000_000),
        example("1b000000e8d4a51000", 1_000_000_000_000),
        example("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615)),
        example("c249010000000000000000", .tagged(2, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        example("3bffffffffffffffff", .negative(18_446_744_073_709_551_615)),
        example("c349010000000000000000", .tagged(3, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]))),
        example("20", -1), example("29", -10), example("3863", -100), example("3903e7", -1000),
        example("f90000", 0.0), example("f98000", .float(-0.0)), example("f93c00", 1.0),
        example("fb3ff199999999999a", 1.1), example("f93e00", 1.5), example("f97bff", 65504.0),
        example("fa47c35000", 100000.0), example("fa7f7fffff", 3.4028234663852886e+38),
        example("fb7e37e43c8800759c", 1.0e+300), example("f90001", 5.960464477539063e-8),
        example("f90400", 0.00006103515625), example("f9c400", -4.0), example("fbc010666666666666", -4.1),
        example("f97c00", .float(.infinity)), example("f97e00", .float(.nan)),
        example("f9fc00", .float(-.infinity)),
        example("fa7f800000", .float(.infinity), deterministic: false),
        example("fa7fc00000", .float(.nan), deterministic: false),
        example("faff800000", .float(-.infinity), deterministic: false),
        example("fb7ff0000000000000", .float(.infinity), deterministic: false),
        example("fb7ff8000000000000", .float(.nan), deterministic: false),
        example("fbfff0000000000000", .float(-.infinity), deterministic: false),
        example("f4", false), example("f5", true), example("f6", .null), example("f7", .undefined),
        example("f0", .simple(16)), example("f8ff", .simple(255)),
        example("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z")),
        example("c11a514b67b0", .tagged(1, 1_363_896_240)),
        example("c1fb41d452d9ec200000", .tagged(1, 1_363_896_240.5)),
        example("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))),
        example("d818456449455446", .tagged(24, .bytes([0x64, 0x49, 0x45, 0x54, 0x46]))),
        example("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com")),
        example("40", .bytes([])), example("4401020304", .bytes([1, 2, 3, 4])),
        example("60", ""), example("6161", "a"), example("6449455446", "IETF"), example("62225c", "\"\\"),
        example("62c3bc", "\u{fc}"), example("63e6b0b4", "\u{6c34}"), example("64f0908591", "\u{10151}"),
        example("80", []), example("83010203", [1, 2, 3]), example("8301820203820405", [1, [2, 3], [4, 5]]),
        example("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { .int($0) })),
        example("a0", [:]), example("a201020304", [1: 2, 3: 4]),
        example("a26161016162820203", ["a": 1, "b": [2, 3]]),
        example("826161a161626163", ["a", ["b": "c"]]),
        example(
            "a56161614161626142616361436164614461656145",
            ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"]
        ),
        example("5f42010243030405ff", .bytes([1, 2, 3, 4, 5]), deterministic: false),
        example("7f657374726561646d696e67ff", "streaming", deterministic: false),
        example("9fff", [], deterministic: false),
        example("9f018202039f0405ffff", [1, [2, 3], [4, 5]], deterministic: false),
        example("9f01820203820405ff", [1, [2, 3], [4, 5]], deterministic: false),
        example("83018202039f0405ff", [1, [2, 3], [4, 5]], deterministic: false),
        example("83019f0203ff820405", [1, [2, 3], [4, 5]], deterministic: false),
        example(
            "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
            .array((1...25).map { .int($0) }),
            deterministic: false
        ),
        example("bf61610161629f0203ffff", ["a": 1, "b": [2, 3]], deterministic: false),
        example("826161bf61626163ff", ["a", ["b": "c"]], deterministic: false),
        example("bf6346756ef563416d7421ff", ["Fun": true, "Amt": -2], deterministic: false),
    ]

    @Test(arguments: examples)
    func decodesEveryExampleToItsValue(_ example: Example) throws {
        #expect(try CBORDecoder().decode(hex(example.hex)) == example.value)
    }

    @Test(arguments: examples.filter(\.deterministic))
    func encodesEveryDeterministicExampleBackToTheSameBytes(_ example: Example) {
        #expect(Vectors.hex(CBOREncoder(keyOrder: .deterministic).encode(example.value)) == example.hex)
    }

    @Test(arguments: [
        ("00", "0"), ("3bffffffffffffffff", "-18446744073709551616"), ("3903e7", "-1000"),
        ("f93e00", "1.5"), ("f97bff", "65504.0"), ("fa47c35000", "100000.0"), ("fb7e37e43c8800759c", "1.0e+300"),
        ("f90001", "5.960464477539063e-8"), ("f97c00", "Infinity"), ("f9fc00", "-Infinity"), ("f97e00", "NaN"),
        ("f4", "false"), ("f6", "null"), ("f7", "undefined"), ("f0", "simple(16)"), ("f8ff", "simple(255)"),
        ("c11a514b67b0", "1(1363896240)"), ("d74401020304", "23(h'01020304')"), ("40", "h''"),
        ("62225c", #""\"\\""#), ("63e6b0b4", "\"\u{6c34}\""), ("80", "[]"),
        ("8301820203820405", "[1, [2, 3], [4, 5]]"), ("a0", "{}"), ("a201020304", "{1: 2, 3: 4}"),
        ("a26161016162820203", #"{"a": 1, "b": [2, 3]}"#), ("826161a161626163", #"["a", {"b": "c"}]"#),
        ("bf6346756ef563416d7421ff", #"{"Fun": true, "Amt": -2}"#),
    ])
    func printsDiagnosticNotation(hex input: String, diagnostic: String) throws {
        #expect(try CBORDecoder().decode(hex(input)).diagnostic == diagnostic)
    }
}
