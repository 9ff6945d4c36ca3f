public import FTWBoxProtocol

extension CBORJSON {
    /// The CBOR value `json` stands for (see ``CBORJSON`` for the forms).
    ///
    /// - Throws: ``InspectorError`` `.badValue` for an integer outside CBOR's range, a number JSON allows but a
    ///   double cannot hold, or a `$` form that is malformed.
    public static func cbor(_ json: JSONValue) throws(InspectorError) -> CBOR {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .text(text)
        case .number(let text): return try number(text)
        case .array(let items):
            var values: [CBOR] = []
            for item in items { values.append(try cbor(item)) }
            return .array(values)
        case .object(let members):
            if let first = members.first, first.name.hasPrefix("$") { return try form(members) }
            var map = CBORMap()
            for member in members {
                map.entries.append(CBORMap.Entry(key: .text(member.name), value: try cbor(member.value)))
            }
            return .map(map)
        }
    }

    private static func number(_ text: String) throws(InspectorError) -> CBOR {
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            guard let number = Double(text), number.isFinite else {
                throw InspectorError(.badValue, "\(text) does not fit a double")
            }
            return .float(number)
        }
        if let number = UInt64(text) { return .unsigned(number) }
        if text.hasPrefix("-"), let magnitude = UInt64(text.dropFirst()), magnitude > 0 {
            return .negative(magnitude - 1)
        }
        if text == "-18446744073709551616" { return .negative(.max) }
        throw InspectorError(.badValue, "the integer \(text) is outside CBOR's -2^64 ... 2^64-1")
    }

    private static func form(_ members: [JSONValue.Member]) throws(InspectorError) -> CBOR {
        let name = members[0].name
        let value = members[0].value
        switch (name, value, members.count) {
        case ("$bytes", .string(let text), 1):
            guard let bytes = Hex.bytes(text) else { throw InspectorError(.badValue, "$bytes is not hex: \(text)") }
            return .bytes(bytes)
        case ("$float", .string("NaN"), 1): return .float(.nan)
        case ("$float", .string("Infinity"), 1): return .float(.infinity)
        case ("$float", .string("-Infinity"), 1): return .float(-.infinity)
        case ("$undefined", .bool(true), 1): return .undefined
        case ("$simple", .number(let text), 1):
            guard let number = UInt8(text), number < 20 || number >= 32 else {
                throw InspectorError(.badValue, "$simple must be 0-19 or 32-255, not \(text)")
            }
            return .simple(number)
        case ("$tag", .number(let text), 2) where members[1].name == "$value":
            guard let tag = UInt64(text) else { throw InspectorError(.badValue, "$tag must be 0 ... 2^64-1") }
            return .tagged(tag, try cbor(members[1].value))
        case ("$map", .array(let pairs), 1): return try map(pairs)
        default:
            throw InspectorError(.badValue, "\(JSONValue.object(members).text.prefix(80)) is no known $ form")
        }
    }

    private static func map(_ pairs: [JSONValue]) throws(InspectorError) -> CBOR {
        var map = CBORMap()
        for pair in pairs {
            guard case .array(let parts) = pair, parts.count == 2 else {
                throw InspectorError(.badValue, "each $map entry is a [key, value] pair")
            }
            map.entries.append(CBORMap.Entry(key: try cbor(parts[0]), value: try cbor(parts[1])))
        }
        return .map(map)
    }
}
