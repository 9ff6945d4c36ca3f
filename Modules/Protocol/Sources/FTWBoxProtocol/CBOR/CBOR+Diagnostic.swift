extension CBOR {
    /// The value in RFC 8949 §8 diagnostic notation, such as `{"t": "tick", "b": {"seq": 41}}`, for people reading
    /// frames (the frame inspector prints it) and for error messages.
    ///
    /// Floats always carry a fraction or an exponent (`1.0`, `1.0e+300`), so they read apart from integers;
    /// indefinite-length strings show joined, as they decode.
    public var diagnostic: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .unsigned(let number): out += String(number)
        case .negative(let number):
            out += number == .max ? "-18446744073709551616" : "-" + String(number + 1)
        case .bytes(let bytes): out += "h'" + bytes.map(Self.hexByte).joined() + "'"
        case .text(let text): Self.writeQuoted(text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .map(let map):
            out += "{"
            for (index, entry) in map.entries.enumerated() {
                if index > 0 { out += ", " }
                entry.key.write(to: &out)
                out += ": "
                entry.value.write(to: &out)
            }
            out += "}"
        case .tagged(let tag, let item):
            out += String(tag) + "("
            item.write(to: &out)
            out += ")"
        case .simple(let number): out += "simple(\(number))"
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .undefined: out += "undefined"
        case .float(let number): out += Self.floatText(number)
        }
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }

    private static func writeQuoted(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Swift's shortest round-trip digits, spelled as RFC 8949 spells floats: `Infinity`, `NaN`, and a `.0`
    /// before a bare exponent with no zero padding in it (`1.0e+300`, `5.960464477539063e-8`).
    private static func floatText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        let text = number.description
        guard let e = text.firstIndex(of: "e") else { return text }
        var mantissa = String(text[..<e])
        if !mantissa.contains(".") { mantissa += ".0" }
        var exponent = text[text.index(after: e)...]
        let sign = exponent.first == "-" ? "-" : "+"
        exponent = exponent.drop { $0 == "-" || $0 == "+" }
        let digits = exponent.drop { $0 == "0" }
        return mantissa + "e" + sign + (digits.isEmpty ? "0" : String(digits))
    }
}
