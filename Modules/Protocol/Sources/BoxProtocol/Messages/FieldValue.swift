/// One field's value and its path, with the typed reads §1.5 calls for.
struct FieldValue {
    let value: CBOR
    let path: String

    private func wrongType(_ expected: String) -> ProtocolError {
        ProtocolError(.wrongType, "\(path): expected \(expected), found \(value.typeName)", field: path)
    }

    private func badField(_ reason: String) -> ProtocolError {
        ProtocolError(.badField, "\(path): \(reason)", field: path)
    }

    func text() throws(ProtocolError) -> String {
        guard case .text(let text) = value else { throw wrongType("text") }
        return text
    }

    func bool() throws(ProtocolError) -> Bool {
        guard case .bool(let flag) = value else { throw wrongType("a bool") }
        return flag
    }

    func bytes() throws(ProtocolError) -> [UInt8] {
        guard case .bytes(let bytes) = value else { throw wrongType("a byte string") }
        return bytes
    }

    /// An integer; a float is refused even when whole, as the box's int64 fields refuse it.
    func int64() throws(ProtocolError) -> Int64 {
        switch value {
        case .unsigned, .negative:
            guard let number = value.int64 else { throw badField("\(value.diagnostic) does not fit int64") }
            return number
        default: throw wrongType("an integer")
        }
    }

    /// A time or duration in milliseconds: a whole integer, never a float (the box drops a message carrying one).
    func milliseconds() throws(ProtocolError) -> Int64 {
        if case .float(let number) = value {
            throw ProtocolError(
                .notWholeMilliseconds,
                "\(path): milliseconds must be a whole integer, found the float \(CBOR.float(number).diagnostic)",
                field: path
            )
        }
        return try int64()
    }

    /// A non-negative integer.
    func uint64() throws(ProtocolError) -> UInt64 {
        switch value {
        case .unsigned(let number): return number
        case .negative: throw badField("expected an unsigned integer, found \(value.diagnostic)")
        default: throw wrongType("an unsigned integer")
        }
    }

    func uint32() throws(ProtocolError) -> UInt32 {
        guard let number = UInt32(exactly: try uint64()) else { throw badField("\(value.diagnostic) does not fit u32") }
        return number
    }

    func int() throws(ProtocolError) -> Int {
        guard let number = Int(exactly: try int64()) else { throw badField("\(value.diagnostic) does not fit Int") }
        return number
    }

    /// Any CBOR number, integer or float of any width, as the box's float64 fields accept.
    func number() throws(ProtocolError) -> Double {
        guard let number = value.double else { throw wrongType("a number") }
        return number
    }

    /// A name shared on the wire, kept even when this build does not know it.
    func name<Name: WireName>() throws(ProtocolError) -> Name {
        Name(rawValue: try text())
    }

    func reader() throws(ProtocolError) -> BodyReader {
        try BodyReader(value, path: path)
    }

    func decode<Body: NestedWireBody>() throws(ProtocolError) -> Body {
        try Body(from: reader())
    }

    /// A map kept as CBOR (command and error args); null reads as empty.
    func map() throws(ProtocolError) -> CBORMap {
        switch value {
        case .map(let map): return map
        case .null: return CBORMap()
        default: throw wrongType("a map")
        }
    }

    /// An array's items; null reads as empty.
    func items() throws(ProtocolError) -> [FieldValue] {
        switch value {
        case .array(let items):
            return items.enumerated().map { FieldValue(value: $0.element, path: "\(path)[\($0.offset)]") }
        case .null: return []
        default: throw wrongType("an array")
        }
    }

    func texts() throws(ProtocolError) -> [String] {
        var texts: [String] = []
        for item in try items() { texts.append(try item.text()) }
        return texts
    }

    func list<Body: NestedWireBody>() throws(ProtocolError) -> [Body] {
        var list: [Body] = []
        for item in try items() { list.append(try item.decode()) }
        return list
    }

    /// A map with text keys; null reads as empty.
    func keyed() throws(ProtocolError) -> [(key: String, value: FieldValue)] {
        try map().entries.map { (entry: CBORMap.Entry) throws(ProtocolError) in
            guard case .text(let key) = entry.key else {
                throw ProtocolError(
                    .wrongType,
                    "\(path): keys must be text, found \(entry.key.typeName)",
                    field: path
                )
            }
            return (key, FieldValue(value: entry.value, path: "\(path).\(key)"))
        }
    }

    func textMap() throws(ProtocolError) -> [String: String] {
        var map: [String: String] = [:]
        for (key, value) in try keyed() { map[key] = try value.text() }
        return map
    }

    func dictionary<Body: NestedWireBody>() throws(ProtocolError) -> [String: Body] {
        var dictionary: [String: Body] = [:]
        for (key, value) in try keyed() { dictionary[key] = try value.decode() }
        return dictionary
    }

    /// A map keyed by field id: decimal text keys (`"2"`) as the box writes them, or integer keys.
    func byFieldID() throws(ProtocolError) -> [(id: Int, value: FieldValue)] {
        var seen: Set<Int> = []
        return try map().entries.map { (entry: CBORMap.Entry) throws(ProtocolError) in
            let id = try fieldID(entry.key)
            guard seen.insert(id).inserted else {
                throw ProtocolError(.duplicateKey, "\(path): field id \(id) appears twice", field: path)
            }
            return (id, FieldValue(value: entry.value, path: "\(path).\(id)"))
        }
    }

    func fieldValues() throws(ProtocolError) -> [Int: Int64] {
        var values: [Int: Int64] = [:]
        for (id, value) in try byFieldID() { values[id] = try value.int64() }
        return values
    }

    private func fieldID(_ key: CBOR) throws(ProtocolError) -> Int {
        switch key {
        case .text(let text):
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let id = Int(text)
            else { throw badField("field id \(key.diagnostic) is not a decimal number") }
            return id
        case .unsigned(let number):
            guard let id = Int(exactly: number) else { throw badField("field id \(number) is out of range") }
            return id
        default:
            throw ProtocolError(
                .wrongType,
                "\(path): field ids must be text or integers, found \(key.typeName)",
                field: path
            )
        }
    }
}
