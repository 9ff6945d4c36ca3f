import FTWBoxProtocol

extension JSONValue {
    /// The value as compact JSON on one line: what `ftw-frame decode --json` prints and `encode` reads back.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): Self.writeQuoted(text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                Self.writeQuoted(member.name, to: &out)
                out += ": "
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A JSON string. CBOR diagnostic notation spells text strings as JSON does (RFC 8949 §8), so its quoting
    /// serves both.
    private static func writeQuoted(_ text: String, to out: inout String) {
        out += CBOR.text(text).diagnostic
    }
}
