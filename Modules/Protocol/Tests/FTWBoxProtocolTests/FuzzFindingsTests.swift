import FTWBoxProtocol
import FTWFixtures
import Testing

/// Inputs the libFuzzer targets (Tools/Fuzz) found, kept so they stay fixed.
@Suite struct FuzzFindingsTests {
    /// fuzz-cbor: `{NaN(payload 1): 0, NaN(payload 2): 0}` decoded as two keys, but our own encoding of it (every NaN
    /// is `f97e00`) held the same key twice and did not decode.
    @Test func twoNaNKeysThatDifferOnlyInTheirPayloadAreTheSameKey() throws {
        let hex = "a2" + "fb7ff8000000000001" + "00" + "fb7ff8000000000002" + "00"
        let bytes = try #require(Vectors.bytes(hex: hex))
        let error = #expect(throws: ProtocolError.self) { try CBORDecoder().decode(bytes) }
        #expect(error?.code == .duplicateKey)
        #expect(error?.offset == 11)
    }

    @Test(arguments: ["fb7ff8000000000001", "fbfff8000000000000", "fa7fc00001", "f97e01", "f9fe00"])
    func everyNaNReadsAsTheNaNTheEncoderWrites(hex: String) throws {
        let value = try CBORDecoder().decode(try #require(Vectors.bytes(hex: hex)))
        #expect(value == .float(.nan))
        #expect(Vectors.hex(CBOREncoder().encode(value)) == "f97e00")
    }
}

/// fuzz-frame: a `sub` whose `hz` is a NaN. The box takes any `hz` but 0.2 as 1 Hz, so the app reads it too; the
/// finding was the fuzzer's own check, which compared the two reads with `==`, and a NaN equals nothing. What the
/// app owes is one reading on both paths and one spelling when it writes the NaN back.
@Suite struct SubWithNaNCadenceTests {
    @Test func bothReadsOfTheFrameGiveASubWithANaNCadenceThatWritesAsTheCanonicalNaN() throws {
        let envelope = "a2" + "6174" + "63737562" + "6162" + "a2" + "666275636b6574" + "190100" + "62687a"
        let payload = try #require(Vectors.bytes(hex: envelope + "fb7ff8000000000001"))
        let header: [UInt8] = [1, 0, 0, 0, 0, UInt8(payload.count)]
        let frame = header + payload + [UInt8](repeating: 0, count: 256 - header.count - payload.count)
        let general = try FrameCodec.decode(frame)
        let direct = try FrameCodec.decodeMessage(frame)
        guard case .sub(let sub) = general.message, case .sub(let directSub) = direct.message else {
            Issue.record("read as \(general.message.type) and \(direct.message.type), not sub")
            return
        }
        #expect(sub.bucket == 256 && directSub.bucket == 256)
        #expect(sub.hz.isNaN && directSub.hz.isNaN)
        #expect(Vectors.hex(general.message.envelope(id: nil).encoded()) == envelope + "f97e00")
    }
}
