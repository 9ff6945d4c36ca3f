import FTWSpawning
import Foundation

/// Programs a benchmark starts: found on `PATH`, or beside this one (the products of the same build).
enum Tool {
    /// `name` on `PATH`, or nil when it is not installed.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(filePath: String(folder)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The product `name` of the build this program belongs to (`ftw-demobox`, `ftw-frame-floor`), or nil when
    /// it was not built.
    static func product(_ name: String) -> URL? {
        let here = Bundle.main.executableURL ?? URL(filePath: CommandLine.arguments[0])
        let candidate = here.deletingLastPathComponent().appending(path: name)
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// This program.
    static var bench: URL {
        Bundle.main.executableURL ?? URL(filePath: CommandLine.arguments[0])
    }

    /// Runs `command` (the program first), waits for it, and returns what it printed.
    static func output(of command: [String]) throws -> String {
        let child = ChildProcess()
        let pipe = Pipe()
        child.executableURL = URL(filePath: command[0])
        child.arguments = Array(command.dropFirst())
        child.standardOutput = pipe
        try child.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        return output
    }
}
