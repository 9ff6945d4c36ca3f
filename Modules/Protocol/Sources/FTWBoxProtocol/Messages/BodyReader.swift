/// The fields of one body map, each read with its path so an error names exactly what is wrong.
struct BodyReader {
    private let map: CBORMap
    private let path: String

    /// Reads `value` as a map; `path` names it in errors (`"hello_ok"`, `"plan.slots[3]"`).
    init(_ value: CBOR, path: String) throws(ProtocolError) {
        guard case .map(let map) = value else {
            throw ProtocolError(.wrongType, "\(path): expected a map, found \(value.typeName)", field: path)
        }
        self.map = map
        self.path = path
    }

    private func path(of key: String) -> String { "\(path).\(key)" }

    /// The field under `key`, which must be present (null counts as present, and the typed read refuses it).
    func field(_ key: String) throws(ProtocolError) -> FieldValue {
        guard let value = map[key] else {
            throw ProtocolError(.missingField, "\(path(of: key)): required field is absent", field: path(of: key))
        }
        return FieldValue(value: value, parent: path, step: .member(key))
    }

    /// The field under `key`, or nil when it is absent or null.
    func optional(_ key: String) -> FieldValue? {
        guard let value = map[key], !value.isNull else { return nil }
        return FieldValue(value: value, parent: path, step: .member(key))
    }

    /// Whether `key` is present at all (null included).
    func contains(_ key: String) -> Bool {
        map[key] != nil
    }
}
