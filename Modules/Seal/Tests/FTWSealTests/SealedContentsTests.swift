import FTWBus
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import Testing

/// The binary layout every model file shares: numbers and text come back as written, and bytes that are not such a
/// file give a typed error naming the file, never a trap and never a value.
@Suite struct SealedContentsTests {
    static let site = SiteID(rawValue: "deb7e3fa44c17f16")!
    static let file = "sample-\(site)"

    /// A value with one field of every kind the writer has.
    struct Sample: SealedCodable, Equatable {
        var count: Int
        var number: Int64
        var big: UInt64
        var flag: Bool
        var ratio: Double
        var text: String
        var maybe: String?

        init(count: Int, number: Int64, big: UInt64, flag: Bool, ratio: Double, text: String, maybe: String?) {
            self.count = count
            self.number = number
            self.big = big
            self.flag = flag
            self.ratio = ratio
            self.text = text
            self.maybe = maybe
        }

        func encode(into writer: inout BinaryWriter) {
            writer.count(count)
            writer.signed(number)
            writer.varint(big)
            writer.bool(flag)
            writer.double(ratio)
            writer.text(text)
            writer.optional(maybe) { $0.text($1) }
        }

        init(from reader: inout BinaryReader) throws(SealedContentError) {
            count = try reader.count(atMost: 1000, of: "things")
            number = try reader.signed()
            big = try reader.varint()
            flag = try reader.bool()
            ratio = try reader.double()
            text = try reader.text(atMost: 64)
            maybe = try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 64) }
        }
    }

    static let sample = Sample(
        count: 3,
        number: -1_796_205_660_000,
        big: .max,
        flag: true,
        ratio: 20.5,
        text: "grid ⚡ meter",
        maybe: nil
    )

    private func decode(_ bytes: [UInt8]) throws(SealedContentError) -> Sample {
        try SealedContents.decode(bytes, file: Self.file)
    }

    @Test(arguments: [
        sample,
        Sample(count: 0, number: .min, big: 0, flag: false, ratio: -.infinity, text: "", maybe: "x"),
        Sample(count: 30, number: .max, big: 1 << 63, flag: true, ratio: 0.1, text: "é", maybe: ""),
    ])
    func aValueReadsBackAsWritten(value: Sample) throws {
        let bytes = SealedContents.encode(value)
        #expect(Array(bytes.prefix(5)) == Array("FTWM".utf8) + [1], "the magic and the version lead, in the clear")
        #expect(try decode(bytes) == value)
    }

    @Test func everyPrefixOfAFileIsRefusedWithATypedError() {
        let bytes = SealedContents.encode(Self.sample)
        for length in 0..<bytes.count {
            #expect(throws: SealedContentError.self, "a file cut to \(length) bytes") {
                try decode(Array(bytes.prefix(length)))
            }
        }
    }

    @Test func anOlderBuildsJSONIsRecognisedAndNeverRead() {
        let json = Array(#"{"count":3,"number":-1,"text":"x"}"#.utf8)
        let error = #expect(throws: SealedContentError.self) { try decode(json) }
        #expect(error?.code == .olderFormat)
        #expect(error?.description == "\(Self.file): it holds an older build's JSON, not format 1")
    }

    @Test func aNewerFormatVersionIsRefusedAsANewerBuilds() {
        var bytes = SealedContents.encode(Self.sample)
        bytes[4] = 2
        let error = #expect(throws: SealedContentError.self) { try decode(bytes) }
        #expect(error?.code == .newerFormat)
        #expect(
            error?.message
                == "\(Self.file) was written by a newer build, in format 2 (this build reads format 1 and older); it is"
                + " kept for that build, and its model starts empty"
        )
    }

    @Test func aVersionNoBuildWroteIsRefused() {
        var bytes = SealedContents.encode(Self.sample)
        bytes[4] = 0
        let error = #expect(throws: SealedContentError.self) { try decode(bytes) }
        #expect(error?.code == .unknownVersion)
        #expect(error?.description == "\(Self.file): format version 0, which no build wrote; this build reads 1")
    }

    @Test func bytesThatAreNoModelFileAreRefused() {
        let error = #expect(throws: SealedContentError.self) { try decode(Array("FTWS\u{1}".utf8) + [0, 0]) }
        #expect(error?.code == .badMagic)
    }

    @Test func aCountPastItsLimitOrPastTheBytesLeftIsRefusedBeforeAnythingIsRead() {
        var writer = BinaryWriter(reservingCapacity: 16)
        writer.raw(SealedContents.magic)
        writer.byte(SealedContents.version)
        writer.count(1001)
        let tooMany = #expect(throws: SealedContentError.self) { try decode(writer.bytes) }
        #expect(tooMany?.code == .tooLarge)
        #expect(tooMany?.description == "\(Self.file): 1001 things, more than the 1000 any such file holds")

        var bytes = SealedContents.encode(Self.sample)
        // The text's length, 14, is the 21st byte: promise more than is left.
        let lengthAt = bytes.count - 1 - 14 - 1
        #expect(bytes[lengthAt] == 14)
        bytes[lengthAt] = 60
        let past = #expect(throws: SealedContentError.self) { try decode(bytes) }
        #expect(past?.code == .truncated)
    }

    @Test func aFlagOtherThanZeroOrOneAnOverlongNumberAndLeftoverBytesAreMalformed() {
        var flag = SealedContents.encode(Self.sample)
        // After the count (1 byte), the number (6 bytes) and the ten-byte varint comes the flag.
        flag[5 + 1 + 6 + 10] = 7
        #expect(throws: SealedContentError.self) { try decode(flag) }
        let overlong = Array("FTWM".utf8) + [1] + Array(repeating: 0xff, count: 11)
        #expect((try? decode(overlong)) == nil)
        let leftover = SealedContents.encode(Self.sample) + [0]
        let error = #expect(throws: SealedContentError.self) { try decode(leftover) }
        #expect(error?.code == .malformed)
    }

    /// Texts are read eight bytes at a time (the ASCII check, the comparison with the text before): one that
    /// differs from the last only past its eighth byte, or is not ASCII only there, still reads back as written.
    @Test func textsThatDifferOnlyPastTheirFirstEightBytesReadBackAsWritten() throws {
        let texts = [
            "charge the car now", "charge the car now", "charge the car not", "charge the car nót", "short", "shorT",
            "", "12345678", "12345679", "1234567é",
        ]
        var writer = BinaryWriter(reservingCapacity: 256)
        for text in texts { writer.text(text) }
        var reader = BinaryReader(writer.bytes, file: Self.file)
        for text in texts { #expect(try reader.text() == text) }
        try reader.finish()
    }

    /// A varint of every length from one byte to ten reads back as written.
    @Test func aNumberOfEveryVarintLengthReadsBackAsWritten() throws {
        let numbers = (0..<64).map { UInt64(1) << $0 } + (1..<64).map { (UInt64(1) << $0) - 1 } + [.max]
        var writer = BinaryWriter(reservingCapacity: 1024)
        for number in numbers { writer.varint(number) }
        var reader = BinaryReader(writer.bytes, file: Self.file)
        for number in numbers { #expect(try reader.varint() == number) }
        try reader.finish()
    }

    @Test func aFileThatDoesNotReadBackIsDroppedAndSaysWhy() async throws {
        let events = EventBus<SealEvent>()
        let recorded = events.subscribe()
        let store = InMemorySealedStore(keys: InMemoryKeyProvider(key: Array(repeating: 7, count: 32)), events: events)
        try await store.keepFile(name: "sample", site: Self.site, contents: Array(#"{"count":3}"#.utf8))
        let read: Sample? = await store.keptContents(name: "sample", site: Self.site)
        #expect(read == nil)
        #expect(store.disk.names.isEmpty, "the file is dropped, so the next launch does not fail on it again")
        events.finish()
        let told = await recorded.reduce(into: [String]()) { if $1.mustBeTold { $0.append($1.description) } }
        #expect(told == ["dropped \(Self.file): it holds an older build's JSON, not format 1; its model starts empty"])
    }

    @Test func aDropNeverRemovesAFileWrittenSinceTheFailedRead() async throws {
        let store = InMemorySealedStore(keys: InMemoryKeyProvider(key: Array(repeating: 7, count: 32)), events: .init())
        let name = try SealedFileName(kind: .kept, site: Self.site, model: "sample")
        try await store.write(Array("old".utf8), to: name)
        try await store.writeContents(Self.sample, to: name)
        let error = SealedContentError(.olderFormat, file: name.fileName, "old")
        await store.discard(name, holding: Array("old".utf8), because: error)
        #expect(await store.readContents(name) == Self.sample, "the newer file stays")
    }
}
