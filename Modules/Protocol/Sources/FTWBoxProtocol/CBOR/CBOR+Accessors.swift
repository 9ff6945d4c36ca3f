extension CBOR {
    /// An integer value: `.unsigned` when `value` is not negative, `.negative` otherwise.
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// A number as the app's reference client writes it: an integer when `value` is whole and fits int64, a
    /// float otherwise (which the encoder writes in its shortest exact width, so `0.2` stays a 64-bit double).
    ///
    /// The box reads every field it declares float64 from any CBOR number, so `sub.hz` of 1 and a guard value of
    /// 900 go out as the integers the vectors show.
    public static func number(_ value: Double) -> CBOR {
        if let whole = WholeNumber.int64(exactly: value), !(value == 0 && value.sign == .minus) { return .int(whole) }
        return .float(value)
    }

    /// The value as an `Int64`, when it is an integer in range; nil for floats and everything else.
    public var int64: Int64? {
        switch self {
        case .unsigned(let number): Int64(exactly: number)
        case .negative(let number): Int64(exactly: number).map { -1 - $0 }
        default: nil
        }
    }

    /// The value as a `UInt64`, when it is a non-negative integer.
    public var uint64: UInt64? {
        if case .unsigned(let number) = self { return number }
        return nil
    }

    /// The value as a `UInt32`, when it is a non-negative integer in range.
    public var uint32: UInt32? {
        uint64.flatMap { UInt32(exactly: $0) }
    }

    /// The value of any CBOR number, integer or float, as a `Double` (integers beyond 2^53 round).
    public var double: Double? {
        switch self {
        case .unsigned(let number): Double(number)
        case .negative(let number): -1 - Double(number)
        case .float(let number): number
        default: nil
        }
    }

    /// The text, when the value is a text string.
    public var string: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The bytes, when the value is a byte string.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The flag, when the value is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The items, when the value is an array.
    public var arrayValue: [CBOR]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The map, when the value is a map.
    public var mapValue: CBORMap? {
        if case .map(let map) = self { return map }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value under the text key `key`, when this value is a map; nil otherwise or when the key is absent.
    public subscript(key: String) -> CBOR? {
        mapValue?[key]
    }

    /// The value with every map, at every depth, in RFC 8949 core deterministic order: what the box's bodies look
    /// like, so that encoding it as given writes the box's bytes.
    public var inDeterministicOrder: CBOR {
        switch self {
        case .array(let items): .array(items.map(\.inDeterministicOrder))
        case .map(let map):
            .map(
                CBORMap(
                    entries: map.entries.map {
                        CBORMap.Entry(key: $0.key.inDeterministicOrder, value: $0.value.inDeterministicOrder)
                    }
                ).sortedByEncodedKey
            )
        case .tagged(let tag, let item): .tagged(tag, item.inDeterministicOrder)
        default: self
        }
    }
}
