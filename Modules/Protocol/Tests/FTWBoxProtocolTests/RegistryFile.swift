import FTWFixtures
import Foundation

/// `Vectors/registry.yaml`, read line by line: enough YAML for the registry's own shapes (sections, `- item`
/// lists, one-line `{ key: value }` maps and `[a, b]` lists), which is all the file uses.
struct RegistryFile {
    /// Each top-level key's inline value (after the colon) and its indented lines, comments dropped.
    private var sections: [String: (inline: String, lines: [String])] = [:]

    init() throws {
        let text = try String(contentsOf: Vectors.url("registry.yaml"), encoding: .utf8)
        var current: String?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = String(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if !line.hasPrefix(" "), let colon = line.firstIndex(of: ":") {
                let key = String(line[..<colon])
                current = key
                sections[key] = (String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces), [])
            } else if let current {
                sections[current]?.lines.append(line)
            }
        }
    }

    /// The items of a `- item` list section: plain strings, or the flow maps' fields.
    func listItems(_ section: String) -> [String] {
        (sections[section]?.lines ?? []).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("- ") else { return nil }
            return String(trimmed.dropFirst(2))
        }
    }

    /// The `- { key: value, … }` items of a section, as dictionaries.
    func mapItems(_ section: String) -> [[String: String]] {
        listItems(section).map(Self.flowMap)
    }

    /// The `key: { … }` lines of a section, in order.
    func keyedMaps(_ section: String) -> [(key: String, fields: [String: String])] {
        (sections[section]?.lines ?? []).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let colon = trimmed.firstIndex(of: ":"), trimmed.contains("{") else { return nil }
            let key = trimmed[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
            return (key, Self.flowMap(String(trimmed[trimmed.index(after: colon)...])))
        }
    }

    /// A section whose value is an inline `[a, b, c]` list.
    func inlineList(_ section: String) -> [String] {
        Self.flowList(sections[section]?.inline ?? "")
    }

    /// The scopes each role lists (`['*']` stays `*`), from the nested `roles` block.
    func roleScopes() -> [String: [String]] {
        var roles: [String: [String]] = [:]
        var role: String?
        for line in sections["roles"]?.lines ?? [] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  "), !line.hasPrefix("    "), trimmed.hasSuffix(":") {
                role = String(trimmed.dropLast())
            } else if let role, trimmed.hasPrefix("scopes:") {
                roles[role] = Self.flowList(String(trimmed.dropFirst("scopes:".count)))
            }
        }
        return roles
    }

    private static func flowList(_ text: String) -> [String] {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\" ")) }
            .filter { !$0.isEmpty }
    }

    private static func flowMap(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.trimmingCharacters(in: CharacterSet(charactersIn: "{} ")).components(separatedBy: ", ") {
            guard let colon = pair.firstIndex(of: ":") else { continue }
            let key = pair[..<colon].trimmingCharacters(in: .whitespaces)
            fields[key] = pair[pair.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }
}
