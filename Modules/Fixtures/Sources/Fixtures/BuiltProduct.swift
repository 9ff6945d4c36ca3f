public import Foundation

/// An executable of this package as the build left it, for tests that run it as a child process the way a person
/// runs it (killed mid-write, launched cold, restarted).
public enum BuiltProduct {
    /// The executable `name` in the build's products folder, found from the running test bundle; the path where it
    /// would be when it was not built, so the caller's launch fails with a message naming it.
    public static func url(_ name: String) -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appending(component: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path(percentEncoded: false)) { return candidate }
            folder.deleteLastPathComponent()
        }
        return folder.appending(component: name)
    }
}
