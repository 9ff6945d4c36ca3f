import Foundation

/// A command line read strictly: every option must be one the command knows.
struct CommandOptions {
    private var words: [String]
    /// The options taken so far: one left over after them was given twice.
    private var taken: Set<String> = []
    /// The subcommand, the first word.
    let command: String?

    init(_ arguments: [String]) {
        command = arguments.first
        words = Array(arguments.dropFirst())
    }

    /// Takes `name` if present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        taken.insert(name)
        return true
    }

    /// Takes `name VALUE` if present.
    mutating func value(_ name: String) throws(CommandError) -> String? {
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count else { throw CommandError("'\(name)' needs a value") }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        taken.insert(name)
        return value
    }

    /// Takes `name FOLDER` if present; an empty path is refused, since it would mean the current folder.
    mutating func folder(_ name: String) throws(CommandError) -> URL? {
        guard let path = try value(name) else { return nil }
        guard !path.isEmpty else {
            throw CommandError("'\(name)' needs a folder; an empty path would be the current folder")
        }
        return URL(fileURLWithPath: path)
    }

    /// Takes the first word that is not an option.
    mutating func positional() -> String? {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") }) else { return nil }
        return words.remove(at: index)
    }

    /// Refuses anything left over, saying what it is: an option given twice, one the command does not know, or a
    /// word the command takes no place for.
    func finish() throws(CommandError) {
        guard let word = words.first else { return }
        let command = "'\(self.command ?? "")'"
        if taken.contains(word) { throw CommandError("\(word) is given twice; \(command) takes it once") }
        if word.hasPrefix("-") { throw CommandError("unknown option '\(word)' for \(command)") }
        throw CommandError("unexpected extra argument '\(word)': \(command) has no place for it")
    }
}

/// A command line that cannot be run, with what is wrong.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
