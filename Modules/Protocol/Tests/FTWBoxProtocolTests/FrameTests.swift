import FTWBoxProtocol
import FTWFixtures
import Testing

/// The frame layer (§1.2-1.3): header, lanes, buckets and padding.
@Suite struct FrameTests {
    @Test(arguments: try FrameVector.all())
    func readsEveryVectorFrameAndWritesTheSameBytesBack(_ vector: FrameVector) throws {
        let frame = try Frame.decode(vector.bytes)
        #expect(frame.lane.rawValue == vector.lane)
        #expect(frame.flags.rawValue == vector.flags)
        #expect(frame.bucket == vector.bucket)
        #expect(frame.payload == vector.payload)
        #expect(try frame.encoded() == vector.bytes)
    }

    @Test func marksATruncatedDelta() throws {
        let vector = try #require(try FrameVector.all().first { $0.name == "delta_truncated" })
        #expect(try Frame.decode(vector.bytes).flags.contains(.truncated))
    }

    @Test func padsControlFramesToTheirBucket() throws {
        let frame = Frame(lane: .control, payload: [0xa0], bucket: 256)
        let bytes = try frame.encoded()
        #expect(bytes.count == 256)
        #expect(Array(bytes.prefix(7)) == [1, 0, 0, 0, 0, 1, 0xa0])
        #expect(bytes.dropFirst(7).allSatisfy { $0 == 0 })
        #expect(try Frame(lane: .control, payload: [0xa0]).encoded().count == 512)
    }

    @Test(arguments: [(0, 1024), (1018, 1024), (1019, 4096), (4090, 4096), (4091, 16384), (16378, 16384)])
    func picksTheSmallestBulkBucketThatHoldsThePayload(_ payloadLength: Int, _ bucket: Int) throws {
        let bytes = try Frame(lane: .bulk, payload: Array(repeating: 0x41, count: payloadLength)).encoded()
        #expect(bytes.count == bucket)
        #expect(Frame.bulkBucket(forPayload: payloadLength) == bucket)
    }

    @Test func refusesABulkPayloadThatFitsNoBucket() {
        #expect(Frame.bulkBucket(forPayload: 16379) == nil)
        #expect(
            thrownCode { try Frame(lane: .bulk, payload: Array(repeating: 0, count: 16379)).encoded() } == .oversized
        )
    }

    @Test(arguments: [300, 1024, 0, -1])
    func refusesALaneZeroBucketOtherThan256Or512(_ bucket: Int) {
        #expect(thrownCode { try Frame(lane: .control, payload: [0xa0], bucket: bucket).encoded() } == .badFrame)
    }

    @Test func refusesALaneZeroPayloadThatDoesNotFitItsBucket() throws {
        #expect(try Frame(lane: .control, payload: Array(repeating: 0, count: 250), bucket: 256).encoded().count == 256)
        #expect(
            thrownCode { try Frame(lane: .control, payload: Array(repeating: 0, count: 251), bucket: 256).encoded() }
                == .oversized
        )
    }

    @Test(arguments: 0..<6)
    func refusesAFrameShorterThanItsHeader(_ length: Int) {
        #expect(thrownCode { try Frame.decode(Array([1, 0, 0, 0, 0, 0].prefix(length))) } == .truncated)
    }

    @Test func refusesALengthThatRunsPastTheEnd() {
        #expect(thrownCode { try Frame.decode([1, 0, 0, 0, 0, 2, 0xa0]) } == .truncated)
        #expect(
            thrownCode { try Frame.decode([1, 1, 0, 0, 0xff, 0xff] + Array(repeating: 0, count: 1018)) } == .truncated
        )
    }

    @Test(arguments: [0, 2, 255])
    func refusesAnyVersionButOne(_ version: UInt8) {
        #expect(thrownCode { try Frame.decode([version, 0, 0, 0, 0, 1, 0xa0]) } == .badFrame)
    }

    @Test func refusesAnUnknownLane() {
        #expect(thrownCode { try Frame.decode([1, 2, 0, 0, 0, 1, 0xa0]) } == .badFrame)
    }

    @Test func ignoresWhateverFollowsThePayloadAndRecordsTheLengthAsTheBucket() throws {
        let frame = try Frame.decode([1, 1, 0x06, 0, 0, 1, 0xa0, 0xde, 0xad])
        #expect(frame.payload == [0xa0])
        #expect(frame.bucket == 9)
        #expect(frame.lane == .bulk)
        #expect(frame.flags == FrameFlags(rawValue: 0x06))
    }
}
