import FTWSeal
import Foundation

/// Every file under a data folder with its bytes and its modification time: what a launch must leave as it found.
///
/// A launch that only reads leaves every file byte for byte and untouched; a rewrite of unchanged contents still
/// changes the time (and, sealed afresh, every byte after the nonce), and a crash-safe write leaves a temporary name.
struct FolderPrint: Equatable {
    /// One file's bytes and modification time.
    struct File: Equatable {
        let bytes: Data
        let modified: Date?
    }

    /// The files by their path under the folder.
    let files: [String: File]

    /// The print of every regular file under `url` but the folder's lock file, where each client that opens the
    /// folder writes its process id: the claim on the folder, not what the phone keeps.
    init(_ url: URL) throws {
        var files: [String: File] = [:]
        let walker = FileManager.default.enumerator(atPath: url.path)
        while let path = walker?.nextObject() as? String {
            guard path != FolderLock.fileName else { continue }
            let location = url.appendingPathComponent(path)
            let attributes = try FileManager.default.attributesOfItem(atPath: location.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[path] = File(bytes: try Data(contentsOf: location), modified: attributes[.modificationDate] as? Date)
        }
        self.files = files
    }

    /// What happened to each file between `earlier` and this print, as a person reads it, sorted by path.
    func changes(since earlier: FolderPrint) -> [String] {
        Set(files.keys).union(earlier.files.keys).sorted().compactMap { path in
            switch (earlier.files[path], files[path]) {
            case (nil, .some): "\(path) created"
            case (.some, nil): "\(path) removed"
            case (let before?, let after?) where before.bytes != after.bytes: "\(path) rewritten"
            case (let before?, let after?) where before.modified != after.modified: "\(path) touched"
            default: nil
            }
        }
    }
}
