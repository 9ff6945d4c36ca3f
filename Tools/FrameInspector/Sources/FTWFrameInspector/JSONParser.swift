/// Reads JSON text (RFC 8259) into a ``JSONValue``, strictly: one value, no trailing text, no comments.
///
/// Foundation's `JSONSerialization` and `JSONDecoder` cannot read what `encode` must tell apart (checked on this
/// toolchain): an object comes back as a dictionary, so its members' order is gone (the `$tag`, `$value` form is
/// known by its first member; `decode --json` and cbor2 are compared key order included) and a repeated name keeps
/// one value without a word, where the box refuses the map; `1` and `1.0` both bridge to `Int` and to `Double`,
/// where CBOR's integer and float differ and a body field takes only one; `-18446744073709551616` comes back as a
/// decimal. So this reader keeps members in order, duplicates included, and each number as its text.
public struct JSONParser {
    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0

    /// How deep arrays and objects may nest: a message is a few levels deep, and parsing recurses once per level.
    public static let maxDepth = 64

    private init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The one value `text` holds.
    ///
    /// - Throws: ``InspectorError`` `.badJSON` naming the byte where the text stopped being JSON.
    public static func parse(_ text: String) throws(InspectorError) -> JSONValue {
        var parser = JSONParser(text)
        let value = try parser.value()
        parser.skipSpace()
        guard parser.offset == parser.bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    private mutating func value() throws(InspectorError) -> JSONValue {
        skipSpace()
        guard let byte = peek() else { throw failure("the text ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"):
            return try nested { (parser: inout JSONParser) throws(InspectorError) in try parser.object() }
        case UInt8(ascii: "["):
            return try nested { (parser: inout JSONParser) throws(InspectorError) in try parser.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return .number(try number())
        }
    }

    private mutating func nested(
        _ read: (inout JSONParser) throws(InspectorError) -> JSONValue
    ) throws(InspectorError) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw failure("nested deeper than \(Self.maxDepth)") }
        return try read(&self)
    }

    private mutating func object() throws(InspectorError) -> JSONValue {
        offset += 1
        var members: [JSONValue.Member] = []
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("an object member needs a quoted name") }
            let name = try string()
            skipSpace()
            try expect(":")
            members.append(JSONValue.Member(name, try value()))
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            try expect(",")
        }
    }

    private mutating func array() throws(InspectorError) -> JSONValue {
        offset += 1
        var items: [JSONValue] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            if peek() == UInt8(ascii: "]") {
                offset += 1
                return .array(items)
            }
            try expect(",")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(InspectorError) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard bytes[offset...].starts(with: utf8) else { throw failure("expected \(word)") }
        offset += utf8.count
        return value
    }

    /// A number's text, checked against JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(InspectorError) -> String {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0") {
            offset += 1
        } else {
            try digits()
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            try digits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            try digits()
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func digits() throws(InspectorError) {
        let start = offset
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
        guard offset > start else { throw failure("expected a digit") }
    }

    private mutating func string() throws(InspectorError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var run = offset
        func flush(_ end: Int) {
            scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                flush(offset)
                offset += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(offset)
                offset += 1
                scalars.append(try escape())
                run = offset
            case 0..<0x20:
                throw failure("a control character inside a string")
            default:
                offset += 1
            }
        }
        throw failure("a string has no closing quote")
    }

    private mutating func escape() throws(InspectorError) -> Unicode.Scalar {
        guard let byte = peek() else { throw failure("the text ends inside an escape") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{c}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try unicodeEscape()
        default: throw failure("unknown escape \\\(Unicode.Scalar(byte))")
        }
    }

    /// `\uXXXX`, joining a surrogate pair into one scalar.
    private mutating func unicodeEscape() throws(InspectorError) -> Unicode.Scalar {
        let high = try hexQuad()
        if (0xD800..<0xDC00).contains(high) {
            guard bytes[offset...].starts(with: Array("\\u".utf8)) else { throw failure("a lone high surrogate") }
            offset += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate without its low half") }
            return Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00)) ?? "\u{FFFD}"
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("a lone low surrogate") }
        return scalar
    }

    private mutating func hexQuad() throws(InspectorError) -> UInt32 {
        guard offset + 4 <= bytes.count,
            bytes[offset..<offset + 4].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
            let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
        else { throw failure("\\u needs four hex digits") }
        offset += 4
        return value
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(InspectorError) {
        guard peek() == UInt8(ascii: character) else { throw failure("expected '\(character)'") }
        offset += 1
    }

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipSpace() {
        while let byte = peek(), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { offset += 1 }
    }

    private func failure(_ message: String) -> InspectorError {
        InspectorError(.badJSON, "\(message) at byte \(offset) of the JSON")
    }
}
