public import FTWBus
import FTWCrypto
public import FTWSealInterface
public import Foundation

/// The phone's sealed files in one folder, each sealed with AES-256-GCM under the phone's one key.
///
/// The folder belongs to the store: it lists, reads and erases the files whose names are sealed file names
/// (`ring-<site>`, `<model>-<site>`, …), the mark of the key that sealed them (`KeyMark`) and the temporary files of
/// its own writes, and leaves anything else alone. See `SealedFileFormat` for the bytes and the module's README for
/// what the seal does and does not protect.
///
/// A file that does not authenticate is dropped only when the key in hand is the folder's own (the mark names it,
/// or one of the folder's files opens under it): then the file is proven damaged. Under a key that is not the
/// folder's, every such file is kept and reported `.readFailed` with `.keyMismatch`, and every write is refused, so
/// nothing already safe is lost and the right key back opens it all.
///
/// ## Concurrency
/// The actor owns the key it fetched. File work is synchronous inside each call, so no other call can interleave
/// between reading a file and removing it, or between sealing and renaming. The one suspension is fetching the key,
/// and an ``eraseAll()`` may run during it, so a key fetched across an erase is fetched again. One store per folder.
public actor FileSealedStore: SealedStore {
    private enum State {
        /// No key in hand: at first, and after ``eraseAll()``. Goes to `.keyed` once a key fetch outlives no erase.
        case unkeyed
        /// The key the provider handed out, and whether it is the folder's, nil until a failed open or a write asks:
        /// a launch whose files all open never needs to know, and naming the key (an HMAC, OpenSSL's first MAC and
        /// digest fetched) was a fifth of its instructions before the first content. Goes back to `.unkeyed` on
        /// ``eraseAll()``.
        case keyed([UInt8], Standing?)
    }

    /// Whether the key in hand is the one the folder's files were sealed with.
    private enum Standing {
        /// The mark names it.
        case marked
        /// No mark yet, and the key is the folder's all the same: none of the folder's files exist, or one opened
        /// under it. The mark is written before the next write.
        case own
        /// Not the folder's key, with why: nothing opens, nothing is dropped, nothing is written.
        case foreign(String)
    }

    private let disk: DiskFolder
    private let keys: any KeyProvider
    private let events: EventBus<SealEvent>
    private let beforeRename: (@Sendable () throws -> Void)?
    /// The data folder's lock, held as long as the store lives: one client at a time writes these files.
    private let lock: FolderLock?
    /// A test's stand-in for a kill in the middle of an erase: called after each file an erase removed (its name, or
    /// `phone.key` once the key is erased); when it throws, the erase stops there, as a killed process would.
    private let afterRemoval: (@Sendable (String) throws(SealError) -> Void)?
    /// Whether an erase is under way: writes are refused until it ends, so none lands between the files' removal
    /// and the key's (a file sealed under a key about to go would be a file without a key).
    private var erasing = false
    private var state = State.unkeyed
    /// The cipher writes seal with, keyed with the key it names; dropped with the key.
    private var sealer: AEADCipher?
    private var sealerKey: [UInt8] = []
    /// Files a newer build wrote, found so by a read or a model's own layout: kept as they are and never written
    /// over, so going back to that build finds them.
    private var newer: Set<SealedFileName> = []
    /// Bumped before and after each erase-all, so a key fetch that overlapped one can tell and fetch again.
    private var erasures = 0

    /// Makes a store over `folder` (created on the first write), removing temporary files a crash left there.
    ///
    /// - Parameters:
    ///   - folder: The store's own folder.
    ///   - keys: Where the phone's key lives.
    ///   - events: Where writes, dropped files and erasures are reported.
    public init(folder: URL, keys: any KeyProvider, events: EventBus<SealEvent>) {
        self.init(folder: folder, keys: keys, events: events, beforeRename: nil)
    }

    /// Makes a store whose writes call `beforeRename` between writing the temporary file and renaming it, so a test
    /// can stand in for a crash there by throwing, and whose opens fail with the `errno` that `openFailure` returns
    /// for a file name, so a test can stand in for a file system that refuses a read now (EACCES, EMFILE, EIO), which
    /// a test running as root cannot otherwise provoke.
    package init(
        folder: URL,
        keys: any KeyProvider,
        events: EventBus<SealEvent>,
        beforeRename: (@Sendable () throws -> Void)?,
        openFailure: (@Sendable (String) -> Int32?)? = nil
    ) {
        self.init(
            folder: folder,
            keys: keys,
            events: events,
            beforeRename: beforeRename,
            openFailure: openFailure,
            lock: nil,
            afterRemoval: nil
        )
    }

    /// Makes a store as the initialiser above does, holding `lock` (the data folder's, `DataFolder.open(events:)`)
    /// for as long as it lives, and calling `afterRemoval` after each file an erase removed, so a test can stand in
    /// for a kill between two steps of an erase by throwing.
    package init(
        folder: URL,
        keys: any KeyProvider,
        events: EventBus<SealEvent>,
        beforeRename: (@Sendable () throws -> Void)?,
        openFailure: (@Sendable (String) -> Int32?)?,
        lock: FolderLock?,
        afterRemoval: (@Sendable (String) throws(SealError) -> Void)?
    ) {
        self.lock = lock
        self.afterRemoval = afterRemoval
        let disk = DiskFolder(folder, openFailure: openFailure)
        Self.removeLeftovers(in: disk)
        self.disk = disk
        self.keys = keys
        self.events = events
        self.beforeRename = beforeRename
    }

    /// Seals `contents` and renames them over the file `name`, then reports `.written`.
    ///
    /// A write that fails is reported `.writeFailed` as well as thrown, so a caller that carries on without its file
    /// (a model keeps running) never makes the failure silent; nothing on disk changes.
    ///
    /// - Throws: `SealError` with `.tooLarge` when the sealed file would pass `name.sizeLimit`, a key code when the
    ///   key is unusable, or `.io`.
    public func write(_ contents: [UInt8], to name: SealedFileName) async throws(SealError) {
        try await events.reportingWrite(of: name) { () async throws(SealError) -> Int in
            try refuseNewer(name)
            let key = try await currentKey()
            guard !erasing else {
                throw SealError(.io, "\(name) was not written: the phone's files are being erased")
            }
            try markFolder(nothingWritten: name)
            var cipher = try takeSealer(for: key)
            let sealed = try SealedFileFormat.seal(contents, as: name, cipher: &cipher)
            sealer = consume cipher
            try disk.replace(name.fileName, with: sealed, beforeRename: beforeRename)
            return sealed.count
        }
    }

    /// The contents of `name`, or nil when absent or when it did not open: a file proven bad is removed and
    /// reported `.dropped`, one that could not be read now is left and reported `.readFailed`.
    public func read(_ name: SealedFileName) async -> [UInt8]? {
        let key: Result<[UInt8], SealError>
        do {
            key = .success(try await currentKey())
        } catch {
            key = .failure(error)
        }
        // From here on nothing suspends: the bytes checked are the bytes removed, never a newer file.
        let file: [UInt8]
        do {
            guard let bytes = try disk.contents(of: name.fileName, limit: name.sizeLimit) else { return nil }
            file = bytes
        } catch {
            return drop(name, error)
        }
        do {
            return try SealedFileFormat.open(file, as: name, key: key)
        } catch  where error.code == .authenticationFailed {
            guard case .foreign(let why)? = currentStanding() else { return drop(name, error) }
            return drop(name, SealError(.keyMismatch, "\(name) does not open, and is kept: \(why)"))
        } catch {
            if error.code == .newerFormat { newer.insert(name) }
            return drop(name, error)
        }
    }

    /// Removes `name` if it still holds `contents`, then reports `.unreadable`; a file a newer build wrote
    /// (`.newerFormat`) is kept instead, never written over, and reported `.readFailed`.
    public func discard(_ name: SealedFileName, holding contents: [UInt8], because error: SealedContentError) async {
        guard error.code != .newerFormat else {
            newer.insert(name)
            events.publish(.readFailed(file: name.fileName, error: SealError(.newerFormat, error.message)))
            return
        }
        let key = try? await currentKey()
        // From here on nothing suspends: the file compared is the file removed, never a newer one.
        if let key, let file = try? disk.contents(of: name.fileName, limit: name.sizeLimit),
            (try? SealedFileFormat.open(file, as: name, key: .success(key))) == contents
        {
            try? disk.remove(name.fileName)
        }
        events.publish(.unreadable(file: name.fileName, error: error))
    }

    /// Removes every file of `site`, then reports `.erasedSite`.
    public func erase(site: SiteID) async throws(SealError) {
        try await erase(site: site, lastModel: nil)
    }

    /// Removes every file of `site`, the kept file of `lastModel` (the one that says the site is there: its pairing
    /// record) last, then reports `.erasedSite`: a kill part way leaves the site there with some of its cache gone,
    /// which a launch reads without error, never a forgotten site's files behind.
    public func erase(site: SiteID, lastModel: String?) async throws(SealError) {
        erasing = true
        defer { erasing = false }
        try removeFiles { $0?.site == site && $0?.model != lastModel }
        try removeFiles { $0?.site == site }
        newer = newer.filter { $0.site != site }
        events.publish(.erasedSite(site))
    }

    /// Removes every sealed file, then the mark of the key, then the phone's key, and reports `.erasedAll`.
    ///
    /// The key goes last, so a kill at any step leaves files with the key that opens them, or no file: never a file
    /// without its key, which a launch could only report. Writes are refused while it runs, and the key in hand is
    /// let go before the key's erasure, so a write that fetched it meanwhile fetches the next key.
    public func eraseAll() async throws(SealError) {
        erasing = true
        defer { erasing = false }
        forgetKey()
        try removeFiles { $0 != nil }
        try removeFiles { $0 == nil }
        forgetKey()
        try await keys.erase()
        forgetKey()
        try afterRemoval?(FileKeyProvider.fileName)
        newer = []
        events.publish(.erasedAll)
    }

    /// Every sealed file on disk, sorted by name; temporary files are not listed. A folder that exists and cannot
    /// be listed is reported `.listFailed` (its files may be fine) and lists none.
    public func files() async -> [SealedFileInfo] {
        let entries: [String]
        do {
            entries = try disk.listing()
        } catch {
            events.publish(.listFailed(folder: disk.path, error: error))
            return []
        }
        return
            entries
            .compactMap { entry -> SealedFileInfo? in
                guard let name = SealedFileName(fileName: entry), let size = disk.size(of: entry) else { return nil }
                return SealedFileInfo(name: name, bytes: size)
            }
            .sorted { $0.name.fileName < $1.name.fileName }
    }

    /// Refuses a write over a file a newer build wrote: this build would replace it with what it knows, and going
    /// back to that build would find it gone.
    private func refuseNewer(_ name: SealedFileName) throws(SealError) {
        guard newer.contains(name) else { return }
        if disk.size(of: name.fileName) == nil {
            newer.remove(name)
            return
        }
        throw SealError(.newerFormat, "\(name) was written by a newer build and is kept for it")
    }

    /// The cipher to seal under `key`: the one kept from the last write when it was keyed with `key`, else a new one.
    private func takeSealer(for key: [UInt8]) throws(SealError) -> AEADCipher {
        if sealerKey == key, let cipher = sealer.take() { return cipher }
        sealerKey = key
        return try SealedFileFormat.sealingCipher(key: key)
    }

    private func currentKey() async throws(SealError) -> [UInt8] {
        while true {
            if case .keyed(let key, _) = state { return key }
            let erasuresBefore = erasures
            let key = try await keys.key()
            guard key.count == AEADAlgorithm.keySize else {
                throw SealError(.keyUnavailable, "the key provider handed out \(key.count) bytes, not 32")
            }
            // An erase-all that ran meanwhile may have erased this very key: fetch again.
            if erasures == erasuresBefore {
                state = .keyed(key, nil)
                return key
            }
        }
    }

    /// Whether the key in hand is the folder's, found out the first time a failed open or a write asks; nil with no
    /// key in hand.
    private func currentStanding() -> Standing? {
        guard case .keyed(let key, let known) = state else { return nil }
        if let known { return known }
        let standing = standing(of: key)
        state = .keyed(key, standing)
        return standing
    }

    /// Whether `key` is the folder's: the mark says so, or (a folder an older build made) one of its files opens
    /// under it, which is then marked; a folder with no file is anyone's.
    private func standing(of key: [UInt8]) -> Standing {
        let id = KeyMark.id(of: key)
        let keptAs =
            "the phone's key is not the key that sealed the files in \(disk.path); put that key back, or"
            + " erase them (forget)"
        if let file = try? disk.contents(of: KeyMark.fileName, limit: KeyMark.sizeLimit),
            let marked = KeyMark.id(in: file)
        {
            return marked == id ? .marked : .foreign("\(keptAs) (they name key \(marked), the phone's is \(id))")
        }
        let sealed = disk.names().compactMap(SealedFileName.init(fileName:))
        guard !sealed.isEmpty else { return .own }
        let bySize = sealed.sorted { (disk.size(of: $0.fileName) ?? .max) < (disk.size(of: $1.fileName) ?? .max) }
        for name in bySize {
            guard let file = try? disk.contents(of: name.fileName, limit: name.sizeLimit),
                (try? SealedFileFormat.open(file, as: name, key: .success(key))) != nil
            else { continue }
            try? disk.replace(KeyMark.fileName, with: KeyMark.contents(id: id))
            return .marked
        }
        return .foreign("none of the sealed files in \(disk.path) opens under the phone's key: \(keptAs)")
    }

    /// Before a write: refuses it under a key that is not the folder's (it would replace a file only the right key
    /// opens), and marks a folder whose key is its own and not marked yet.
    private func markFolder(nothingWritten name: SealedFileName) throws(SealError) {
        guard case .keyed(let key, _) = state, let standing = currentStanding() else { return }
        switch standing {
        case .marked:
            return
        case .foreign(let why):
            throw SealError(.keyMismatch, "\(name) was kept as it is, on purpose: \(why)")
        case .own:
            try disk.replace(KeyMark.fileName, with: KeyMark.contents(id: KeyMark.id(of: key)))
            state = .keyed(key, .marked)
        }
    }

    private func forgetKey() {
        erasures += 1
        state = .unkeyed
        sealer = nil
        sealerKey = []
    }

    private func drop(_ name: SealedFileName, _ error: SealError) -> [UInt8]? {
        // Only a file proven bad goes: one the file system or the key provider failed may open on a later launch.
        if error.code.condemnsFile { try? disk.remove(name.fileName) }
        events.publish(.failedRead(of: name.fileName, error))
        return nil
    }

    /// Removes the store's files (and their temporary files) whose names `matches`: a sealed file's name, or nil for
    /// the key's mark; then flushes the folder.
    ///
    /// - Throws: the first removal that failed, after trying every file; or what ``afterRemoval`` threw, at once.
    private func removeFiles(where matches: (SealedFileName?) -> Bool) throws(SealError) {
        var failure: SealError?
        for entry in disk.names() {
            let target = DiskFolder.name(besideTemporary: entry) ?? entry
            let name = SealedFileName(fileName: target)
            guard name != nil || target == KeyMark.fileName, matches(name) else { continue }
            do {
                try disk.remove(entry)
            } catch {
                failure = failure ?? error
                continue
            }
            try afterRemoval?(entry)
        }
        try disk.flush()
        if let failure { throw failure }
    }

    /// Removes the temporary files of writes a crash cut short: they never became a sealed file and never will.
    private static func removeLeftovers(in disk: DiskFolder) {
        for entry in disk.names() {
            guard let target = DiskFolder.name(besideTemporary: entry),
                SealedFileName(fileName: target) != nil || target == KeyMark.fileName
            else { continue }
            try? disk.remove(entry)
        }
    }
}
