/// One field's value and its path, with the typed reads §1.5 calls for.
///
/// The path is spelled out only when something reads it (an error, a nested body's reader): a message's fields
/// are read many times a second and nearly always read fine, so they keep the pieces, not the joined string.
struct FieldValue {
    /// How a value is reached from the container holding it.
    enum Step {
        /// A named member of a body map: `parent.key`.
        case member(String)
        /// An entry of a map keyed by field id: `parent.id`.
        case fieldID(Int)
        /// An item of an array: `parent[index]`.
        case index(Int)
    }

    let value: CBOR
    private let parent: String
    private let step: Step

    init(value: CBOR, parent: String, step: Step) {
        self.value = value
        self.parent = parent
        self.step = step
    }

    /// Where the value sits in its message, as errors name it (`"delta.fields.2"`, `"plan.slots[3]"`).
    var path: String {
        switch step {
        case .member(let key): "\(parent).\(key)"
        case .fieldID(let id): "\(parent).\(id)"
        case .index(let index): "\(parent)[\(index)]"
        }
    }

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
            let path = path
            return items.enumerated().map { FieldValue(value: $0.element, parent: path, step: .index($0.offset)) }
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
        let path = path
        return try map().entries.map { (entry: CBORMap.Entry) throws(ProtocolError) in
            guard case .text(let key) = entry.key else {
                throw ProtocolError(
                    .wrongType,
                    "\(path): keys must be text, found \(entry.key.typeName)",
                    field: path
                )
            }
            return (key, FieldValue(value: entry.value, parent: path, step: .member(key)))
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
        let path = path
        let entries = try map().entries
        var seen = Set<Int>(minimumCapacity: entries.count)
        return try entries.map { (entry: CBORMap.Entry) throws(ProtocolError) in
            let id = try fieldID(entry.key)
            guard seen.insert(id).inserted else { throw duplicate(id) }
            return (id, FieldValue(value: entry.value, parent: path, step: .fieldID(id)))
        }
    }

    /// A map of field ids to integers, what every `snap` and `delta` carries.
    ///
    /// It refuses what reading ``byFieldID()`` and then each value would refuse, in the same order (a bad or
    /// repeated id anywhere before the first value that is not an integer), in one pass: the dictionary's own
    /// insert finds a repeated id, and a value's path is spelled out only for the error.
    func fieldValues() throws(ProtocolError) -> [Int: Int64] {
        let entries = try map().entries
        var values = [Int: Int64](minimumCapacity: entries.count)
        var firstBadValue: (id: Int, value: CBOR)?
        for entry in entries {
            let id = try fieldID(entry.key)
            let number = entry.value.int64
            guard values.updateValue(number ?? 0, forKey: id) == nil else { throw duplicate(id) }
            if number == nil, firstBadValue == nil { firstBadValue = (id, entry.value) }
        }
        if let (id, value) = firstBadValue {
            // Not an int64, so the typed read throws the error that names it.
            _ = try FieldValue(value: value, parent: path, step: .fieldID(id)).int64()
        }
        return values
    }

    private func duplicate(_ id: Int) -> ProtocolError {
        ProtocolError(.duplicateKey, "\(path): field id \(id) appears twice", field: path)
    }

    private func fieldID(_ key: CBOR) throws(ProtocolError) -> Int {
        switch key {
        case .text(let text):
            guard let id = Self.decimal(text.utf8) else {
                throw badField("field id \(key.diagnostic) is not a decimal number")
            }
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

    /// `utf8` as a number when it is 1 to 18 decimal digits (so it always fits an `Int`), read in one pass over its
    /// bytes: a field id's text key, for the general read and for `LiveFrameReader`.
    static func decimal(_ utf8: some Collection<UInt8>) -> Int? {
        guard !utf8.isEmpty, utf8.count <= 18 else { return nil }
        var number = 0
        for byte in utf8 {
            guard (0x30...0x39).contains(byte) else { return nil }
            number = number * 10 + Int(byte - 0x30)
        }
        return number
    }
}
