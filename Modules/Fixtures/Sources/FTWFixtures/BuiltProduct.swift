public import Foundation

/// An executable of this package as the build left it, for tests that run it as a child process the way a person
/// runs it (killed mid-write, launched cold, restarted).
public enum BuiltProduct {
    /// The executable `name` in the build's products folder, found from the running test bundle; the path where it
    /// would be when it was not built, so the caller's launch fails with a message naming it.
    public static func url(_ name: String) -> URL {
        found(name) ?? testBundleFolder.appending(component: name)
    }

    /// The executable `name` in the build's products folder, or nil when it was not built (a test can skip).
    public static func found(_ name: String) -> URL? {
        var folder = testBundleFolder
        for _ in 0..<4 {
            let candidate = folder.appending(component: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path(percentEncoded: false)) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    private static var testBundleFolder: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }
}
