import FTWBoxProtocol
import Testing

/// Each malformed input gets its own typed error, at the byte where it went wrong.
@Suite struct CBORDecoderErrorTests {
    func code(of input: [UInt8], limits: CBORDecoder.Limits = .init()) -> ProtocolError.Code? {
        thrownCode { try CBORDecoder(limits: limits).decode(input) }
    }

    @Test func refusesEveryProperPrefixOfAValueAsTruncated() {
        let whole = hex("a3617463636d64626964076162a263736571182a63617267a16161f93c00")
        #expect(code(of: whole) == nil)
        for length in 0..<whole.count {
            #expect(code(of: Array(whole.prefix(length))) == .truncated, "prefix of \(length) bytes")
        }
    }

    @Test(arguments: [
        "5b7fffffffffffffff",  // a byte string of 2^63 - 1 bytes
        "7b8000000000000000",  // a text string of 2^63 bytes
        "5a00010001",  // 65537 bytes, one over the default limit
    ])
    func refusesADeclaredStringLongerThanTheLimitBeforeReadingIt(_ input: String) {
        #expect(code(of: hex(input)) == .tooLong)
    }

    @Test(arguments: ["9b7fffffffffffffff00", "bb400000000000000000", "4405", "7a0000ffff61"])
    func refusesADeclaredLengthPastTheInputAsTruncated(_ input: String) {
        #expect(code(of: hex(input)) == .truncated)
    }

    @Test func acceptsNestingUpToTheLimitAndRefusesOneLevelMore() {
        let limit = CBORDecoder.Limits().maxDepth
        #expect(code(of: Array(repeating: 0x81, count: limit) + [0x00]) == nil)
        #expect(code(of: Array(repeating: 0x81, count: limit + 1) + [0x00]) == .tooDeep)
        #expect(code(of: Array(repeating: 0xc1, count: limit + 1) + [0x00]) == .tooDeep)
        #expect(code(of: Array(repeating: 0x9f, count: limit + 1)) == .tooDeep)
    }

    @Test func refusesMoreItemsThanTheLimit() {
        let limits = CBORDecoder.Limits(maxItems: 3)
        #expect(code(of: hex("820102"), limits: limits) == nil)
        #expect(code(of: hex("83010203"), limits: limits) == .tooManyItems)
    }

    @Test(arguments: ["a2617401617402", "a201020103", "bf61610161610200ff", "a2a1010202a1010203"])
    func refusesDuplicateMapKeys(_ input: String) {
        #expect(code(of: hex(input)) == .duplicateKey)
    }

    @Test func treatsKeysThatDifferOnlyInTheirTypeOrBytesAsDifferent() {
        // 1, 1.0 and "1" are three keys; so are a precomposed é and e + combining acute.
        #expect(code(of: hex("a301f5f93c00f56131f5")) == nil)
        #expect(code(of: hex("a262c3a9016365cc8102")) == nil)
    }

    @Test(arguments: ["0000", "a0ff", "f600"])
    func refusesTrailingBytes(_ input: String) {
        #expect(code(of: hex(input)) == .trailingBytes)
    }

    @Test(arguments: ["61ff", "62c0af", "63eda080", "7f61616180ff", "64f4908080"])
    func refusesInvalidUTF8(_ input: String) {
        #expect(code(of: hex(input)) == .invalidUTF8)
    }

    @Test(arguments: ["1c", "3d", "5e", "7c", "9d", "be", "dc", "fc", "fd", "fe"])
    func refusesReservedAdditionalInformation(_ input: String) {
        #expect(code(of: hex(input)) == .reservedValue)
    }

    @Test(arguments: ["ff", "81ff", "bf01ff", "a1ff00"])
    func refusesABreakWhereNoIndefiniteItemIsOpen(_ input: String) {
        #expect(code(of: hex(input)) == .unexpectedBreak)
    }

    @Test(arguments: [
        "1f", "3f", "df00",  // indefinite integers and tags
        "f800", "f81f",  // one-byte simple values below 32
        "5f6161ff", "7f4161ff", "5f5f4101ffff", "7f01ff",  // chunks of the wrong kind
    ])
    func refusesWhatRFC8949CallsNotWellFormed(_ input: String) {
        #expect(code(of: hex(input)) == .notWellFormed)
    }

    /// Small maps check keys against the ones before them and large maps through a set; both must refuse a repeat
    /// and name the repeated key's offset.
    @Test(arguments: [3, 16, 17, 40])
    func refusesADuplicateKeyInAMapOfAnySizeAtTheRepeatedKey(entries: Int) throws {
        let distinct = (0..<entries - 1).map { index in CBORMap.Entry(key: .text("k\(index)"), value: .unsigned(1)) }
        #expect(code(of: CBOREncoder().encode(.map(CBORMap(entries: distinct)))) == nil)
        let repeated = distinct + [CBORMap.Entry(key: .text("k0"), value: .unsigned(2))]
        let bytes = CBOREncoder().encode(.map(CBORMap(entries: repeated)))
        let error = try #require(throws: ProtocolError.self) { try CBORDecoder().decode(bytes) }
        #expect(error.code == .duplicateKey)
        #expect(error.offset == bytes.count - 4)
        #expect(error.message == #"the map holds the key "k0" twice"#)
    }

    /// Keys are the same only when their bytes are: text that Unicode calls equivalent but spells differently
    /// (here U+F900 and the U+8C48 it decomposes to, three bytes each) makes two keys, found by their own bytes.
    @Test func textKeysAreTheSameOnlyWhenTheirBytesAre() throws {
        let value = try CBORDecoder().decode(hex("a2" + "63efa480" + "01" + "63e8b188" + "02"))
        let map = try #require(value.mapValue)
        #expect(map.count == 2)
        #expect(map["\u{F900}"] == 1)
        #expect(map["\u{8C48}"] == 2)
        #expect(map["\u{F900}\u{8C48}"] == nil)
        let repeated = hex("a2" + "63efa480" + "01" + "63efa480" + "02")
        #expect(code(of: repeated) == .duplicateKey)
    }

    /// Text is checked eight bytes at a time before the full UTF-8 check; a bad byte anywhere in a longer string,
    /// in a full word or in the tail after the last one, is still refused.
    @Test(arguments: [
        "6aff616161616161616161",  // first byte of a 10-byte string
        "6a616161616161c0af6161",  // an overlong encoding inside the first eight bytes
        "6a6161616161616161ff61",  // in the tail after the first eight bytes
        "70616161616161616161616161616161ff",  // the last byte of two full words
    ])
    func refusesInvalidUTF8AnywhereInALongString(_ input: String) {
        #expect(code(of: hex(input)) == .invalidUTF8)
    }

    @Test func reportsTheOffsetOfTheFailingItem() throws {
        let error = try #require(throws: ProtocolError.self) { try CBORDecoder().decode(hex("8301021c")) }
        #expect(error.offset == 3)
        #expect(error.message.contains("28"))
    }
}
