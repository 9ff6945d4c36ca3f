/// Writes CBOR values as bytes, the way the box and its reference clients write them.
///
/// Always: integers and lengths in their shortest head, floats in the shortest width that holds them exactly
/// (half, single or double; every NaN as `f97e00`, infinities as half), definite lengths only. The one choice is
/// the order of map keys: the app's bodies are written in the order they were built (the spec tables' order,
/// which the vectors reproduce), the box's in RFC 8949 core deterministic order.
public struct CBOREncoder: Sendable {
    /// The order map entries are written in.
    public enum KeyOrder: Sendable, Hashable {
        /// The order of ``CBORMap/entries``, as built or decoded.
        case asGiven
        /// RFC 8949 core deterministic: sorted bytewise on each key's encoded form, at every level; the box's
        /// order.
        case deterministic
    }

    /// The order map entries are written in.
    public var keyOrder: KeyOrder

    /// Makes an encoder.
    ///
    /// - Parameter keyOrder: The order map entries are written in.
    public init(keyOrder: KeyOrder = .asGiven) {
        self.keyOrder = keyOrder
    }

    /// The encoding of `value`.
    public func encode(_ value: CBOR) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    private func append(_ value: CBOR, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let number): Self.appendHead(major: 0, number, to: &out)
        case .negative(let number): Self.appendHead(major: 1, number, to: &out)
        case .bytes(let bytes):
            Self.appendHead(major: 2, UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        case .text(let text):
            Self.appendHead(major: 3, UInt64(text.utf8.count), to: &out)
            out.append(contentsOf: text.utf8)
        case .array(let items):
            Self.appendHead(major: 4, UInt64(items.count), to: &out)
            for item in items { append(item, to: &out) }
        case .map(let map): append(map, to: &out)
        case .tagged(let tag, let item):
            Self.appendHead(major: 6, tag, to: &out)
            append(item, to: &out)
        case .simple(let number): appendSimple(number, to: &out)
        case .bool(let flag): out.append(flag ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case .float(let number): Self.appendFloat(number, to: &out)
        }
    }

    private func append(_ map: CBORMap, to out: inout [UInt8]) {
        Self.appendHead(major: 5, UInt64(map.count), to: &out)
        switch keyOrder {
        case .asGiven:
            for entry in map.entries {
                append(entry.key, to: &out)
                append(entry.value, to: &out)
            }
        case .deterministic:
            let encoded = map.entries.map { (key: encode($0.key), value: $0.value) }
            for entry in encoded.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                out.append(contentsOf: entry.key)
                append(entry.value, to: &out)
            }
        }
    }

    /// Simple values 24-31 have no well-formed encoding; they are written as the two bytes `f8 n` and refused by
    /// the decoder, rather than silently becoming another value.
    private func appendSimple(_ number: UInt8, to out: inout [UInt8]) {
        if number < 24 {
            out.append(0xe0 | number)
        } else {
            out.append(contentsOf: [0xf8, number])
        }
    }

    /// Appends an item head: the major type and the shortest form of its argument.
    static func appendHead(major: UInt8, _ argument: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xff: out.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xffff: appendBigEndian(argument, byteCount: 2, after: type | 25, to: &out)
        case 0x1_0000...0xffff_ffff: appendBigEndian(argument, byteCount: 4, after: type | 26, to: &out)
        default: appendBigEndian(argument, byteCount: 8, after: type | 27, to: &out)
        }
    }

    private static func appendBigEndian(_ value: UInt64, byteCount: Int, after head: UInt8, to out: inout [UInt8]) {
        out.append(head)
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }

    private static func appendFloat(_ number: Double, to out: inout [UInt8]) {
        if number.isNaN {
            out.append(contentsOf: [0xf9, 0x7e, 0x00])
        } else if let half = HalfFloat.bits(exactly: number) {
            appendBigEndian(UInt64(half), byteCount: 2, after: 0xf9, to: &out)
        } else if let single = Float(exactly: number) {
            appendBigEndian(UInt64(single.bitPattern), byteCount: 4, after: 0xfa, to: &out)
        } else {
            appendBigEndian(number.bitPattern, byteCount: 8, after: 0xfb, to: &out)
        }
    }
}
