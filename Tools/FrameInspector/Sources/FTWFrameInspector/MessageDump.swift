public import FTWBoxProtocol

/// A typed message as indented lines, one field a line, for a person reading a frame.
///
/// Built on `Mirror`, so a field added to a message shows up here without a change. Dictionaries are sorted by key
/// (their order means nothing and should not change between runs), byte arrays print as hex, CBOR values as
/// diagnostic notation, and registry names as their wire names.
public enum MessageDump {
    /// The lines for `message`, starting with its type and id.
    public static func lines(_ message: Message, id: UInt32?) -> [String] {
        var lines = ["\(message.type)" + (id.map { " (id \($0))" } ?? " (no id)")]
        let mirror = Mirror(reflecting: message)
        for child in mirror.children { append(child.value, label: nil, depth: 1, to: &lines) }
        return lines
    }

    private static func append(_ value: Any, label: String?, depth: Int, to lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        let prefix = indent + (label.map { "\($0): " } ?? "")
        if let leaf = leaf(value) {
            lines.append(prefix + leaf)
            return
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else {
                lines.append(prefix + "nil")
                return
            }
            append(wrapped, label: label, depth: depth, to: &lines)
        case .collection, .set:
            lines.append(prefix + "[\(mirror.children.count)]")
            for (index, child) in mirror.children.enumerated() {
                append(child.value, label: "[\(index)]", depth: depth + 1, to: &lines)
            }
        case .dictionary:
            lines.append(prefix + "[\(mirror.children.count) entries]")
            for (key, entry) in sortedEntries(mirror) { append(entry, label: key, depth: depth + 1, to: &lines) }
        default:
            lines.append(prefix + String(describing: type(of: value)))
            for child in mirror.children { append(child.value, label: child.label, depth: depth + 1, to: &lines) }
        }
    }

    /// The one-line form of values that need no lines of their own.
    private static func leaf(_ value: Any) -> String? {
        switch value {
        case let text as String: return "\"\(text)\""
        case let bytes as [UInt8]:
            return "\(bytes.count) bytes " + Hex.string(bytes.prefix(64)) + (bytes.count > 64 ? "…" : "")
        case let cbor as CBOR: return cbor.diagnostic
        case let map as CBORMap: return CBOR.map(map).diagnostic
        case let name as any WireName: return name.rawValue
        case let resolution as HistoryResolution: return resolution.rawValue
        default: break
        }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty, mirror.displayStyle != .optional, mirror.displayStyle != .collection,
            mirror.displayStyle != .dictionary
        {
            return String(describing: value)
        }
        return nil
    }

    private static func sortedEntries(_ mirror: Mirror) -> [(String, Any)] {
        mirror.children
            .compactMap { child -> (String, Any)? in
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { return nil }
                return (String(describing: pair[0]), pair[1])
            }
            .sorted { left, right in
                switch (Int(left.0), Int(right.0)) {
                case (let a?, let b?): a < b
                default: left.0 < right.0
                }
            }
    }
}
