/// What the sealed store did, on its bus: for logs and tests, and for what a person must be told: that a file was
/// dropped and its model starts empty, or that a file could not be read or written and why.
///
/// ``description`` is the one line an app prints for each.
import FTWBus

public enum SealEvent: Sendable, Hashable, CustomStringConvertible {
    /// A file was sealed and renamed into place; `bytes` is its size on disk.
    case written(file: String, bytes: Int)
    /// A file was there but is proven bad (`SealError.Code.condemnsFile`), so it was removed, its reader got nil
    /// and its model starts empty: a bad file would fail the same way on every launch.
    case dropped(file: String, reason: SealError.Code)
    /// A file opened but its contents are not in the layout this build reads (an older build's JSON, a newer
    /// format, bytes cut short): it was removed and its model starts empty and asks again.
    case unreadable(file: String, error: SealedContentError)
    /// A file may be there but could not be read now (the file system refused it, it is not a regular file, or the
    /// key is missing or unusable): its reader got nil and the file is left on disk as it was, for a later launch.
    case readFailed(file: String, error: SealError)
    /// A write did not happen (a full disk, a read-only folder, no key): the old file, if any, is intact.
    case writeFailed(file: String, error: SealError)
    /// The folder of the sealed files exists and could not be listed (no permission, not a folder): its files were
    /// not seen, which is not the same as there being none, and they are left as they are.
    case listFailed(folder: String, error: SealError)
    /// The key file was readable by other users and ours, so it was made 0600 before use; `mode` is what it was.
    case keyTightened(file: String, mode: UInt16)
    /// Every file of one site was removed (the home was removed from this phone).
    case erasedSite(SiteID)
    /// Every sealed file and the phone's key were removed (the phone was signed out or handed on).
    case erasedAll

    /// What a read that failed with `error` reports: `.dropped` when the error proves the file bad (the store removes
    /// it), `.readFailed` when the file may open later (the store leaves it).
    public static func failedRead(of file: String, _ error: SealError) -> SealEvent {
        error.code.condemnsFile ? .dropped(file: file, reason: error.code) : .readFailed(file: file, error: error)
    }

    /// Whether a person must be told: a file dropped, unread or unwritten, or a key tightened. A write that happened
    /// or an erase that was asked for is no news. Every app that prints the store's events prints these.
    public var mustBeTold: Bool {
        switch self {
        case .dropped, .unreadable, .readFailed, .writeFailed, .listFailed, .keyTightened: true
        case .written, .erasedSite, .erasedAll: false
        }
    }

    /// One line for a person: the file, what happened, and why.
    public var description: String {
        switch self {
        case .written(let file, let bytes):
            "sealed \(file) (\(bytes) bytes)"
        case .dropped(let file, let reason):
            "dropped \(file): \(reason.explanation); its model starts empty"
        case .unreadable(let file, let error):
            "dropped \(file): \(error.message); its model starts empty"
        case .readFailed(let file, let error):
            "could not read \(file), left on disk: \(error.message)"
        case .writeFailed(let file, let error):
            error.code == .keyMismatch
                ? "did not write \(file): \(error.message)"
                : "could not write \(file), nothing on disk changed: \(error.message)"
        case .listFailed(let folder, let error):
            "could not list the sealed files in \(folder), left as they are: \(error.message)"
        case .keyTightened(let file, let mode):
            "\(file) was readable by others (mode 0\(String(mode, radix: 8))): made it 0600"
        case .erasedSite(let site):
            "erased every file of site \(site)"
        case .erasedAll:
            "erased every sealed file and the phone's key"
        }
    }
}
