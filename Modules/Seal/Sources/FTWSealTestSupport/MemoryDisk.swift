public import FTWSealInterface
import Synchronization

/// The bytes an ``InMemorySealedStore`` keeps, as a folder would keep them: shared by the stores a test makes one
/// after another, so a relaunch (a second store over the same disk, perhaps under another key) sees what the first
/// wrote, and a test can change, cut or replace a file's bytes and make reads or writes fail.
public final class MemoryDisk: Sendable {
    private struct Contents {
        var files: [String: [UInt8]] = [:]
        var readFailures: [String: SealError] = [:]
        var writeFailure: SealError?
    }

    private let contents = Mutex(Contents())

    /// An empty disk.
    public init() {}

    /// The sealed bytes of `name` as they sit on the disk, or nil when there is no such file.
    public func bytes(of name: SealedFileName) -> [UInt8]? {
        contents.withLock { $0.files[name.fileName] }
    }

    /// Puts `bytes` in place of `name`, as someone editing the folder would.
    public func put(_ bytes: [UInt8], as name: SealedFileName) {
        contents.withLock { $0.files[name.fileName] = bytes }
    }

    /// Makes every read of `name` fail with `error` (nil lets it read again), as a file system that refuses a read
    /// now would; the file stays.
    public func failReads(of name: SealedFileName, with error: SealError?) {
        contents.withLock { $0.readFailures[name.fileName] = error }
    }

    /// Makes every write fail with `error` (nil lets writes through), as a full disk or a read-only folder would.
    public func failWrites(with error: SealError?) {
        contents.withLock { $0.writeFailure = error }
    }

    /// The names of the files on the disk, sorted.
    public var names: [String] {
        contents.withLock { $0.files.keys.sorted() }
    }

    /// What a read of `name` finds: the bytes, nil when absent, or the failure a test set.
    func read(_ name: String) throws(SealError) -> [UInt8]? {
        let found = contents.withLock { ($0.files[name], $0.readFailures[name]) }
        if let failure = found.1 { throw failure }
        return found.0
    }

    /// Puts `bytes` in place of `name`, unless a test made writes fail.
    func write(_ bytes: [UInt8], to name: String) throws(SealError) {
        let failure: SealError? = contents.withLock { contents in
            if let failure = contents.writeFailure { return failure }
            contents.files[name] = bytes
            return nil
        }
        if let failure { throw failure }
    }

    /// Removes every file whose name `matches`.
    func remove(where matches: (String) -> Bool) {
        contents.withLock { contents in
            contents.files = contents.files.filter { !matches($0.key) }
        }
    }
}
