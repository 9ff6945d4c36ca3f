import FTWBoxProtocol

/// SplitMix64: a seeded generator, so a failing message can be made again from its seed.
///
/// A class, so the message generator's many small draws share one stream without `inout` plumbing.
final class SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }

    /// A number in `range`, drawn from this stream.
    func number<Number: FixedWidthInteger>(in range: ClosedRange<Number>) -> Number {
        var generator = self
        return Number.random(in: range, using: &generator)
    }

    func chance(_ percent: Int) -> Bool { number(in: 0...99) < percent }

    func pick<Element>(_ choices: [Element]) -> Element { choices[number(in: 0...choices.count - 1)] }

    /// Text that tests the codecs: ASCII, accents, CJK, emoji, quotes, backslashes, control characters and `$`.
    func text(maxLength: Int = 12) -> String {
        let alphabet: [String] = ["a", "z", "Q", "7", " ", "é", "水", "🙂", "\"", "\\", "\n", "\u{1}", "/", "$", "-"]
        return (0..<number(in: 0...maxLength)).map { _ in pick(alphabet) }.joined()
    }

    func bytes(maxCount: Int) -> [UInt8] {
        (0..<number(in: 0...maxCount)).map { _ in number(in: 0...255) }
    }

    /// An Int64 from every range: small, the CBOR head edges, and the extremes.
    func int64() -> Int64 {
        switch number(in: 0...3) {
        case 0: number(in: -30...30)
        case 1: pick([23, 24, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, -24, -25, -257, .min, .max])
        case 2: number(in: 0...4_000_000_000_000)
        default: number(in: Int64.min...Int64.max)
        }
    }

    func uint64() -> UInt64 {
        chance(20) ? pick([0, 23, 24, UInt64(UInt32.max), .max]) : next() >> number(in: 0...63)
    }

    /// A finite double, integral or not, of every float width.
    func double() -> Double {
        let base = pick([0.0, -0.0, 1.0, 0.5, 0.2, 1.5, 65504.0, 100_000.0, 1e300, 5.960464477539063e-8, -4.1])
        return chance(50) ? base : base * Double(number(in: -1000...1000))
    }

    /// A CBOR value for the open maps (`cmd.args`, `event.args`, `error.args`).
    func cbor(depth: Int = 0) -> CBOR {
        switch number(in: 0...(depth < 2 ? 7 : 5)) {
        case 0: .int(int64())
        case 1: .float(double())
        case 2: .text(text())
        case 3: .bytes(bytes(maxCount: 8))
        case 4: pick([.bool(true), .bool(false), .null])
        case 5: .unsigned(uint64())
        case 6: .array((0..<number(in: 0...3)).map { _ in cbor(depth: depth + 1) })
        default: .map(cborMap(depth: depth + 1))
        }
    }

    func cborMap(depth: Int = 0) -> CBORMap {
        var map = CBORMap()
        for index in 0..<number(in: 0...3) { map["k\(index)" + text(maxLength: 3)] = cbor(depth: depth) }
        return map
    }
}
