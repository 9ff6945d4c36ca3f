extension CBOR: Hashable {
    /// Whether two values are the same data item: floats by their bits, text by its bytes, maps in any order.
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): sameUTF8(a, b)
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a == b
        case (.tagged(let tagA, let a), .tagged(let tagB, let b)): tagA == tagB && a == b
        case (.simple(let a), .simple(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null), (.undefined, .undefined): true
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern
        default: false
        }
    }

    /// Whether two strings hold the same bytes.
    ///
    /// `==` (canonical equivalence) holds for every pair with the same bytes, and for two short ASCII strings (nearly
    /// every map key) it is a comparison of two words, so it turns a different key away first; only a match is then
    /// checked byte for byte in place, since canonically equivalent text may be spelled in different bytes.
    static func sameUTF8(_ a: String, _ b: String) -> Bool {
        guard a == b, a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                for index in a.indices where a[index] != b[index] { return false }
                return true
            }
        }
    }

    /// Hashes what ``==(_:_:)`` compares, so equal values hash alike.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value): hasher.combine(0 as UInt8); hasher.combine(value)
        case .negative(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .bytes(let value): hasher.combine(2 as UInt8); hasher.combine(value)
        case .text(let value):
            hasher.combine(3 as UInt8); hasher.combine(value.utf8.count)
            for byte in value.utf8 { hasher.combine(byte) }
        case .array(let value): hasher.combine(4 as UInt8); hasher.combine(value)
        case .map(let value): hasher.combine(5 as UInt8); hasher.combine(value)
        case .tagged(let tag, let value): hasher.combine(6 as UInt8); hasher.combine(tag); hasher.combine(value)
        case .simple(let value): hasher.combine(7 as UInt8); hasher.combine(value)
        case .bool(let value): hasher.combine(8 as UInt8); hasher.combine(value)
        case .null: hasher.combine(9 as UInt8)
        case .undefined: hasher.combine(10 as UInt8)
        case .float(let value): hasher.combine(11 as UInt8); hasher.combine(value.bitPattern)
        }
    }
}
