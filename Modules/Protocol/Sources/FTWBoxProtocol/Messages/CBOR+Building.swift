/// Small constructors the message bodies write themselves with.
extension CBOR {
    static func texts(_ texts: [String]) -> CBOR {
        .array(texts.map(CBOR.text))
    }

    static func names<Name: WireName>(_ names: [Name]) -> CBOR {
        .array(names.map { .text($0.rawValue) })
    }

    /// An integer, or null (not absent) when there is none: what the box writes for its pointer fields.
    static func nullable(_ value: Int64?) -> CBOR {
        value.map(CBOR.int) ?? .null
    }

    static func nullable(_ value: String?) -> CBOR {
        value.map(CBOR.text) ?? .null
    }

    static func list<Body: WireBody>(_ list: [Body]) -> CBOR {
        .array(list.map(\.body))
    }

    /// A map from a Swift dictionary, sorted so the bytes do not depend on hashing order.
    static func sorted(_ entries: [(String, CBOR)]) -> CBOR {
        .map(CBORMap(entries).sortedByEncodedKey)
    }

    static func textMap(_ map: [String: String]) -> CBOR {
        sorted(map.map { ($0.key, .text($0.value)) })
    }

    static func dictionary<Body: WireBody>(_ dictionary: [String: Body]) -> CBOR {
        sorted(dictionary.map { ($0.key, $0.value.body) })
    }

    /// Field values under decimal text keys, as the box writes them.
    static func fieldValues(_ values: [Int: Int64]) -> CBOR {
        sorted(values.map { (String($0.key), .int($0.value)) })
    }
}
