/// Why a scenario file or name could not be run: the file (or name) and what is wrong, in one line.
public enum ScenarioFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Neither a file nor a shipped scenario has this name.
    case notFound(String, shipped: [String])
    /// The path is a folder.
    case folder(String)
    /// The file cannot be opened or read.
    case unreadable(String)
    /// Something other than a regular file is at the path (a named pipe, a device, a socket).
    case notRegularFile(String)
    /// The file is longer than ``ScenarioParser/maxBytes``.
    case tooLarge(String)
    /// The file is not UTF-8 text (binary, or another encoding).
    case notText(String)
    /// The file reads, but a line of it does not, or a step on it cannot run.
    case line(String, ScenarioError)

    /// What a person reads after `ftw-headless: `.
    public var description: String {
        switch self {
        case .notFound(let name, let shipped):
            "no file and no shipped scenario is named '\(name)'; the shipped scenarios are "
                + shipped.joined(separator: ", ")
        case .folder(let path): "'\(path)' is a folder, not a scenario file"
        case .unreadable(let path): "'\(path)' cannot be read (no permission)"
        case .notRegularFile(let path):
            "'\(path)' is not a regular file (a named pipe, a device or a socket): a scenario is read from a file"
        case .tooLarge(let path):
            "'\(path)' is larger than \(ScenarioParser.maxBytes / 1024) KiB, the most a scenario file holds"
        case .notText(let path): "'\(path)' is not a scenario: it is not UTF-8 text (binary, or another encoding)"
        case .line(let path, let error): "\(path): \(error)"
        }
    }
}
