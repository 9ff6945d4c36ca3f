public import FTWBus
import FTWSeal
public import FTWSealInterface

/// A sealed store over a ``MemoryDisk``, so a model's tests need no temporary folder.
///
/// It seals and opens exactly as `FileSealedStore` does (the same format, key and size limits), and drops, refuses
/// and reports the same way: a file proven bad is removed and reported `.dropped`, one whose read fails is left and
/// reported `.readFailed`, a write that fails is reported `.writeFailed` and leaves the old bytes. Its disk only ever
/// holds files sealed under its one key, so a file that does not authenticate is proven damaged, as it is in a
/// `FileSealedStore` whose folder is marked with the key in hand.
public actor InMemorySealedStore: SealedStore {
    /// The disk the store keeps its files on; give a second store the same one to stand for a relaunch.
    public nonisolated let disk: MemoryDisk
    private let keys: any KeyProvider
    private let events: EventBus<SealEvent>
    /// Files a newer build wrote: kept and never written over, as `FileSealedStore` does.
    private var newer: Set<SealedFileName> = []

    /// Makes a store over `disk` under the key `keys` hands out, reporting on `events`.
    public init(disk: MemoryDisk = MemoryDisk(), keys: any KeyProvider, events: EventBus<SealEvent>) {
        self.disk = disk
        self.keys = keys
        self.events = events
    }

    /// Seals `contents` as `name` and keeps them, then reports `.written`; a failure is reported `.writeFailed`.
    public func write(_ contents: [UInt8], to name: SealedFileName) async throws(SealError) {
        try await events.reportingWrite(of: name) { () async throws(SealError) -> Int in
            if newer.contains(name), (try? disk.read(name.fileName)) != nil {
                throw SealError(.newerFormat, "\(name) was written by a newer build and is kept for it")
            }
            let sealed = try SealedFileFormat.seal(contents, as: name, key: try await keys.key())
            try disk.write(sealed, to: name.fileName)
            return sealed.count
        }
    }

    /// The contents of `name`, or nil when absent or when it did not open (reported as `FileSealedStore` does).
    public func read(_ name: SealedFileName) async -> [UInt8]? {
        let key: Result<[UInt8], SealError>
        do {
            key = .success(try await keys.key())
        } catch {
            key = .failure(error)
        }
        do {
            guard let file = try disk.read(name.fileName) else { return nil }
            return try SealedFileFormat.open(file, as: name, key: key)
        } catch {
            if error.code.condemnsFile { disk.remove { $0 == name.fileName } }
            if error.code == .newerFormat { newer.insert(name) }
            events.publish(.failedRead(of: name.fileName, error))
            return nil
        }
    }

    /// Removes `name` if it still holds `contents`, then reports `.unreadable`, as `FileSealedStore` does.
    public func discard(_ name: SealedFileName, holding contents: [UInt8], because error: SealedContentError) async {
        guard error.code != .newerFormat else {
            newer.insert(name)
            events.publish(.readFailed(file: name.fileName, error: SealError(.newerFormat, error.message)))
            return
        }
        let key = try? await keys.key()
        if let key, let file = try? disk.read(name.fileName),
            (try? SealedFileFormat.open(file, as: name, key: .success(key))) == contents
        {
            disk.remove { $0 == name.fileName }
        }
        events.publish(.unreadable(file: name.fileName, error: error))
    }

    /// Removes every file of `site`, then reports `.erasedSite`.
    public func erase(site: SiteID) async throws(SealError) {
        try await erase(site: site, lastModel: nil)
    }

    /// Removes every file of `site`, the kept file of `lastModel` last, then reports `.erasedSite`.
    public func erase(site: SiteID, lastModel: String?) async throws(SealError) {
        disk.remove { SealedFileName(fileName: $0).map { $0.site == site && $0.model != lastModel } ?? false }
        disk.remove { SealedFileName(fileName: $0)?.site == site }
        events.publish(.erasedSite(site))
    }

    /// Erases the key and every file, then reports `.erasedAll`.
    public func eraseAll() async throws(SealError) {
        disk.remove { _ in true }
        try await keys.erase()
        events.publish(.erasedAll)
    }

    /// Every file on the disk, sorted by name.
    public func files() async -> [SealedFileInfo] {
        disk.names.compactMap { entry in
            guard let name = SealedFileName(fileName: entry), let bytes = disk.bytes(of: name) else { return nil }
            return SealedFileInfo(name: name, bytes: bytes.count)
        }
    }
}
