public import FTWBus
public import FTWSeal
public import FTWSealInterface
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where this headless phone keeps what it must not lose between runs: its key (`phone.key`, 0600) and its sealed
/// files (`sealed/`), among them one `pairing-<site>` per paired home.
///
/// `--data DIR` chooses it; the default is the platform's place for an app's data (``standard``), so `pair`,
/// `sites`, `run --real-time` and `forget` meet the same phone without being told.
public struct DataFolder: Sendable {
    /// The folder's own name in the platform's place for apps' data.
    static let name = "ftw-headless"

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

    /// The platform's place for an app's data, for this process's environment: see ``standard(environment:)``.
    public static var standard: DataFolder {
        standard(environment: ProcessInfo.processInfo.environment)
    }

    /// The platform's place for an app's data: on Linux `$XDG_DATA_HOME/ftw-headless`, or
    /// `$HOME/.local/share/ftw-headless` when that is unset, empty or not an absolute path (the XDG base directory
    /// rules); on Apple platforms `$HOME/Library/Application Support/ftw-headless`. `$HOME` is the home folder
    /// when it is an absolute path, the user's entry in the system's accounts otherwise.
    public static func standard(environment: [String: String]) -> DataFolder {
        #if canImport(Darwin)
        DataFolder(url: home(environment).appending(path: "Library/Application Support/\(name)"))
        #else
        let xdg = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
        return DataFolder(url: (xdg ?? home(environment).appending(path: ".local/share")).appending(path: name))
        #endif
    }

    /// Where builds before the platform's convention kept the phone's files: `$HOME/.ftw-headless`.
    public static func older(environment: [String: String]) -> DataFolder {
        DataFolder(url: home(environment).appending(path: ".\(name)"))
    }

    private static func home(_ environment: [String: String]) -> URL {
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            return FileManager.default.homeDirectoryForCurrentUser
        }
        return URL(fileURLWithPath: home)
    }

    /// The standard folder for `environment`, after moving an older build's folder (``older(environment:)``) there
    /// when only that one exists, so the phone's key and paired sites follow: a rename, whole or not at all. When
    /// the rename fails, the older folder is used where it is. Returns the folder and what happened, for a line to
    /// say, or nil when nothing moved.
    public static func standardFollowingOlder(environment: [String: String]) -> (folder: DataFolder, note: String?) {
        let standard = standard(environment: environment)
        let older = older(environment: environment)
        let manager = FileManager.default
        guard manager.fileExists(atPath: older.url.path), !manager.fileExists(atPath: standard.url.path) else {
            return (standard, nil)
        }
        let parent = standard.url.deletingLastPathComponent()
        try? manager.createDirectory(
            at: parent,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        guard rename(older.url.path, standard.url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            return (
                older,
                "using the phone's files in \(older.url.path): moving them to \(standard.url.path), the platform's"
                    + " place for them, failed (\(reason))"
            )
        }
        return (
            standard, "moved the phone's files from \(older.url.path) to \(standard.url.path), the platform's place"
        )
    }

    /// The folder of the sealed files.
    public var sealedFolder: URL {
        // Not `url.appendingPathComponent(_:)`: its first call builds Foundation's set of allowed bytes, 0.44 M
        // instructions of a launch before its first content (docs/launch-clock.md). The same URL, made from the path.
        let path = url.path(percentEncoded: false)
        return URL(fileURLWithPath: (path.hasSuffix("/") ? path : path + "/") + "sealed")
    }

    /// The phone's sealed files, under its key, taking no lock: a second client on the folder is not refused, and
    /// two clients would write the same files and remove each other's temporary files. A client opens its folder
    /// with ``open(events:)``.
    @available(*, deprecated, message: "takes no lock: open(events:) refuses a second client on the folder")
    public func store(events: EventBus<SealEvent> = EventBus()) -> FileSealedStore {
        unlockedStore(events: events)
    }

    /// The phone's sealed files, under its key, for one client at a time: the store holds the folder's lock
    /// (``/FTWSeal/FolderLock``) for as long as it lives, and the kernel releases it when the process ends, killed or
    /// not.
    ///
    /// - Throws: ``/FTWSealInterface/SealError`` with `.folderInUse` when another client, in this process or another,
    ///   holds the folder (its message names the folder and the holder's process id); nothing is written then.
    public func open(events: EventBus<SealEvent> = EventBus()) throws(SealError) -> FileSealedStore {
        store(events: events, lock: try FolderLock(folder: url))
    }

    /// The phone's sealed files with no lock taken, for a tool or a test that holds the folder already or reads a
    /// copy of it; never a client's way in (``open(events:)``).
    package func unlockedStore(events: EventBus<SealEvent> = EventBus()) -> FileSealedStore {
        store(events: events, lock: nil)
    }

    /// The phone's sealed files, holding `lock`, calling `afterRemoval` after each file an erase removed (a test's
    /// stand-in for a kill between two steps of an erase, ``/FTWSeal/FileSealedStore``'s).
    package func store(
        events: EventBus<SealEvent>,
        lock: FolderLock?,
        afterRemoval: (@Sendable (String) throws(SealError) -> Void)? = nil
    ) -> FileSealedStore {
        FileSealedStore(
            folder: sealedFolder,
            keys: FileKeyProvider(dataFolder: url, sealedFolder: sealedFolder, events: events),
            events: events,
            beforeRename: nil,
            openFailure: nil,
            lock: lock,
            afterRemoval: afterRemoval
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
