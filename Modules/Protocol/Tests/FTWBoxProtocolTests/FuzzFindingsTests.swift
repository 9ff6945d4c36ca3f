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
