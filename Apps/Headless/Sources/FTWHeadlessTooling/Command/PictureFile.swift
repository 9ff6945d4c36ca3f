import Foundation

/// Where `--svg` writes the battery picture, checked before anything runs so a typo in the path costs no run.
struct PictureFile {
    let path: String

    /// Checks that `path` names a file in a folder that exists.
    ///
    /// - Throws: `CommandError` naming the path and what is wrong with it.
    init(_ path: String) throws(CommandError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw CommandError("--svg '\(path)' is a folder; give a file name")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandError("--svg '\(path)': there is no folder '\(folder)'")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw CommandError("--svg '\(path)': the folder '\(folder)' is not writable")
        }
        self.path = path
    }

    /// Writes the picture.
    ///
    /// - Throws: `CommandError` naming the path when it cannot be written after all.
    func write(_ picture: SVGChart) throws(CommandError) {
        do {
            try picture.render().write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CommandError("--svg '\(path)' cannot be written")
        }
    }
}
