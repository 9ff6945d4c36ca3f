/// A value written out field by field, in the same words on every run: dictionaries and sets sorted (their order
/// changes from one process to the next), optionals unwrapped. For comparing what a client draws with a golden copy.
enum CanonicalText {
    static func of(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { of($0.value) } ?? "nil"
        case .dictionary:
            let entries = mirror.children.map { entry -> String in
                let pair = Mirror(reflecting: entry.value).children.map { of($0.value) }
                return pair.joined(separator: ": ")
            }
            return "[" + entries.sorted().joined(separator: ", ") + "]"
        case .set:
            return "{" + mirror.children.map { of($0.value) }.sorted().joined(separator: ", ") + "}"
        case .collection:
            return "[" + mirror.children.map { of($0.value) }.joined(separator: ", ") + "]"
        case .struct, .tuple, .enum, .class:
            guard !mirror.children.isEmpty else { return String(describing: value) }
            let fields = mirror.children.map { child in (child.label.map { "\($0): " } ?? "") + of(child.value) }
            return "\(mirror.subjectType)(" + fields.joined(separator: ", ") + ")"
        default:
            return String(describing: value)
        }
    }
}
