import FTWBoxProtocol
import FTWTestingTraits
import Testing

/// Random and mutated inputs to every decoder: each must return or throw a ``ProtocolError``, never trap.
///
/// A trap would end the test process, so reaching the end is the assertion; the counts check the inputs really
/// went through both paths.
@Suite(.ownThread) struct FuzzTests {
    /// SplitMix64: seeded, so a failure replays.
    struct Random {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
            return mixed ^ (mixed >> 31)
        }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }

        /// Random bytes biased towards CBOR heads that declare huge lengths, nesting and breaks.
        mutating func cborish(_ count: Int) -> [UInt8] {
            let interesting: [UInt8] = [
                0x1b, 0x3b, 0x5b, 0x7b, 0x9b, 0xbb, 0x9f, 0xbf, 0x5f, 0x7f, 0xff, 0xf9, 0xfb, 0xc1,
            ]
            return (0..<count).map { _ in
                below(3) == 0 ? interesting[below(interesting.count)] : UInt8(truncatingIfNeeded: next())
            }
        }
    }

    struct Tally {
        var accepted = 0
        var refused = 0
        /// Errors of any other type than ``ProtocolError``; there must be none.
        var strays = 0

        mutating func record(_ body: () throws -> Void) {
            do {
                try body()
                accepted += 1
            } catch is ProtocolError {
                refused += 1
            } catch {
                strays += 1
            }
        }
    }

    /// Every decoder this module has, on one input.
    static func decodeEverything(_ bytes: [UInt8], into tally: inout Tally) {
        tally.record { _ = try CBORDecoder().decode(bytes) }
        tally.record {
            _ = try CBORDecoder(limits: .init(maxDepth: 4, maxItems: 50, maxStringLength: 20)).decode(bytes)
        }
        tally.record { _ = try Frame.decode(bytes) }
        tally.record { _ = try FrameCodec.decode(bytes) }
        tally.record {
            let envelope = try Envelope.decode(bytes)
            _ = try Message(envelope: envelope)
        }
        tally.record { _ = try TileData.decode(bytes, series: bytes.count % 5, points: bytes.count / 4) }
    }

    @Test func survivesRandomBytes() {
        var random = Random(state: 0x5eed)
        var tally = Tally()
        for round in 0..<4000 {
            let count = random.below(round < 2000 ? 24 : 300)
            let input = round.isMultiple(of: 2) ? random.bytes(count) : random.cborish(count)
            Self.decodeEverything(input, into: &tally)
            Self.decodeEverything(
                [1, UInt8(random.below(2)), 0, 0, UInt8(count >> 8), UInt8(count & 0xff)] + input,
                into: &tally
            )
        }
        #expect(tally.refused == 43_416)
        #expect(tally.accepted == 4_584)
        #expect(tally.strays == 0)
    }

    @Test func survivesMutatedValidFrames() throws {
        var random = Random(state: 0xf4a3e)
        var tally = Tally()
        let frames = try SampleMessages.all.map { try FrameCodec.encode($0, id: 9) }
        for round in 0..<3000 {
            var frame = frames[round % frames.count]
            let payloadEnd = 6 + (Int(frame[4]) << 8 | Int(frame[5]))
            for _ in 0...random.below(4) {
                let at = random.below(min(frame.count, payloadEnd + 2))
                switch random.below(4) {
                case 0: frame[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: frame[at] ^= 1 << UInt8(random.below(8))
                case 2: frame.removeSubrange(at..<min(frame.count, at + 1 + random.below(8)))
                default: frame.insert(contentsOf: random.cborish(1 + random.below(9)), at: at)
                }
            }
            Self.decodeEverything(frame, into: &tally)
            Self.decodeEverything(Array(frame.dropFirst(6).prefix(payloadEnd - 6)), into: &tally)
        }
        #expect(tally.refused == 31_372)
        #expect(tally.accepted == 4_628)
        #expect(tally.strays == 0)
    }

    @Test func survivesDeepAndWideInputs() {
        var tally = Tally()
        Self.decodeEverything(Array(repeating: 0x81, count: 100_000), into: &tally)
        Self.decodeEverything(Array(repeating: 0x9f, count: 100_000), into: &tally)
        Self.decodeEverything([0x9b] + Array(repeating: 0xff, count: 8), into: &tally)
        Self.decodeEverything([0x9a, 0x00, 0x01, 0x00, 0x01] + Array(repeating: 0x00, count: 65_537), into: &tally)
        Self.decodeEverything([0x5f] + Array(repeating: 0x40, count: 70_000) + [0xff], into: &tally)
        Self.decodeEverything(Array(repeating: 0xc1, count: 50) + [0x00], into: &tally)
        #expect(tally.refused == 34)
    }
}
