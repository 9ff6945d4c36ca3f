public import Bus
public import Foundation
public import Seal
public import SealInterface

/// Where this headless phone keeps what it must not lose between runs: its key (`phone.key`, 0600) and its sealed
/// files (`sealed/`), among them one `pairing-<site>` per paired home.
///
/// `--data DIR` chooses it; the default is `~/.ftw-headless`, so `pair`, `sites`, `run --real-time` and `forget`
/// meet the same phone without being told.
public struct DataFolder: Sendable {
    /// The folder.
    public let url: URL

    /// The folder at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The folder at `path`, for a caller that holds a path rather than a `URL`.
    public init(path: String) {
        self.init(url: URL(fileURLWithPath: path))
    }

    /// `~/.ftw-headless`.
    public static var standard: DataFolder {
        DataFolder(url: FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".ftw-headless"))
    }

    /// The folder of the sealed files.
    public var sealedFolder: URL { url.appendingPathComponent("sealed") }

    /// The phone's sealed files, under its key.
    public func store(events: EventBus<SealEvent> = EventBus()) -> FileSealedStore {
        FileSealedStore(
            folder: sealedFolder,
            keys: FileKeyProvider(dataFolder: url, sealedFolder: sealedFolder, events: events),
            events: events
        )
    }

    /// Removes the folders the phone made, once the store has erased every file in them; a folder that still holds
    /// something not ours stays.
    public func removeEmptyFolders() {
        for folder in [sealedFolder, url] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [""]
            if entries.isEmpty { try? FileManager.default.removeItem(at: folder) }
        }
    }
}
