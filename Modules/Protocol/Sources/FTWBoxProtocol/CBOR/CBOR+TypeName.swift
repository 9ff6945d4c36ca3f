extension CBOR {
    /// What kind of value this is, for error messages ("expected text, found a map").
    var typeName: String {
        switch self {
        case .unsigned: "an unsigned integer"
        case .negative: "a negative integer"
        case .bytes: "a byte string"
        case .text: "text"
        case .array: "an array"
        case .map: "a map"
        case .tagged(let tag, _): "a value with tag \(tag)"
        case .simple(let number): "simple value \(number)"
        case .bool: "a bool"
        case .null: "null"
        case .undefined: "undefined"
        case .float: "a float"
        }
    }
}
