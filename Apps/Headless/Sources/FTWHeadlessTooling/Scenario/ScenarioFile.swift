import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a scenario file as a person points at it: a path, or the name of a shipped scenario.
///
/// Whatever is wrong with the file itself (a folder, no permission, binary bytes, too long) is one
/// ``ScenarioFileError`` naming it, never a Foundation error dump; a line that does not parse names the file too.
public enum ScenarioFile {
    /// Loads `target`: the file at that path if there is one, else the shipped scenario of that name.
    ///
    /// - Returns: The scenario and its name for the report (the file's name without its extension).
    /// - Throws: `ScenarioFileError`.
    public static func load(_ target: String) throws(ScenarioFileError) -> (scenario: Scenario, name: String) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) else {
            return (try BuiltInScenario.load(target), target)
        }
        guard !isFolder.boolValue else { throw .folder(target) }
        let name = URL(fileURLWithPath: target).deletingPathExtension().lastPathComponent
        return (try parse(text(atPath: target), file: target), name)
    }

    /// The text of the file at `path`: at most ``ScenarioParser/maxBytes``, UTF-8 with no NUL byte, a leading byte order mark
    /// dropped, and its line ends, whether `\n`, `\r\n` or a lone `\r` (an old Mac editor's), read as `\n`.
    ///
    /// Only a regular file is read (a symbolic link to one is followed): the file is opened without waiting and
    /// checked on its descriptor, so a named pipe or a device in its place is refused rather than waited on for good.
    ///
    /// - Throws: `ScenarioFileError`.
    public static func text(atPath path: String) throws(ScenarioFileError) -> String {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path) }
        var information = stat()
        guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notRegularFile(path)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let data: Data
        do {
            data = try handle.read(upToCount: ScenarioParser.maxBytes + 1) ?? Data()
        } catch {
            throw .unreadable(path)
        }
        guard data.count <= ScenarioParser.maxBytes else { throw .tooLarge(path) }
        guard !data.contains(0), var text = String(validating: Self.lineEnds(data), as: UTF8.self) else {
            throw .notText(path)
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text
    }

    /// `bytes` with every `\r\n` and every lone `\r` made `\n`.
    private static func lineEnds(_ bytes: Data) -> [UInt8] {
        let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        var lines: [UInt8] = []
        lines.reserveCapacity(bytes.count)
        var afterCR = false
        for byte in bytes {
            if !(afterCR && byte == lf) { lines.append(byte == cr ? lf : byte) }
            afterCR = byte == cr
        }
        return lines
    }

    /// Parses `text`, naming `file` with a line that does not read.
    static func parse(_ text: String, file: String) throws(ScenarioFileError) -> Scenario {
        do {
            return try ScenarioParser.parse(text)
        } catch {
            throw .line(file, error)
        }
    }
}
