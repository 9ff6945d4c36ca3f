public import FTWBoxProtocol

/// How the inspector writes CBOR as JSON and reads it back, one to one, so `decode --json` output feeds `encode`.
///
/// | CBOR | JSON |
/// |---|---|
/// | integer | a number without fraction or exponent: `3`, `-1`, `18446744073709551615` |
/// | float | a number with a fraction or exponent: `1.0`, `0.2`, `1e+300`; `{"$float": "NaN"}`, `"Infinity"`, `"-Infinity"` |
/// | text | a string |
/// | byte string | `{"$bytes": "<lowercase hex>"}` |
/// | array | an array |
/// | map with text keys | an object, members in the map's order |
/// | map with other keys | `{"$map": [[key, value], …]}` |
/// | true, false, null | `true`, `false`, `null` |
/// | undefined, simple value n, tag n | `{"$undefined": true}`, `{"$simple": n}`, `{"$tag": n, "$value": …}` |
///
/// An object whose first member's name starts with `$` is one of these forms; a map whose keys start with `$` is
/// written as `$map`, so nothing is ambiguous.
public enum CBORJSON {
    /// The JSON of `value`.
    public static func json(_ value: CBOR) -> JSONValue {
        switch value {
        case .unsigned(let number): .number(String(number))
        case .negative(let number): .number(number == .max ? "-18446744073709551616" : "-" + String(number + 1))
        case .float(let number): float(number)
        case .text(let text): .string(text)
        case .bytes(let bytes): form("$bytes", .string(Hex.string(bytes)))
        case .array(let items): .array(items.map(json))
        case .map(let map): json(map)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .undefined: form("$undefined", .bool(true))
        case .simple(let number): form("$simple", .number(String(number)))
        case .tagged(let tag, let item):
            .object([JSONValue.Member("$tag", .number(String(tag))), JSONValue.Member("$value", json(item))])
        }
    }

    private static func json(_ map: CBORMap) -> JSONValue {
        let names = map.entries.map { entry -> String? in
            guard case .text(let name) = entry.key, !name.hasPrefix("$") else { return nil }
            return name
        }
        guard names.allSatisfy({ $0 != nil }) else {
            return form("$map", .array(map.entries.map { .array([json($0.key), json($0.value)]) }))
        }
        return .object(zip(names, map.entries).map { JSONValue.Member($0 ?? "", json($1.value)) })
    }

    private static func float(_ number: Double) -> JSONValue {
        if number.isNaN { return form("$float", .string("NaN")) }
        if number.isInfinite { return form("$float", .string(number < 0 ? "-Infinity" : "Infinity")) }
        return .number(number.description)
    }

    private static func form(_ name: String, _ value: JSONValue) -> JSONValue {
        .object([JSONValue.Member(name, value)])
    }
}
