/// Sealed (encrypted, authenticated) files of one phone: what the app keeps of each home between launches.
///
/// Every file is sealed under the phone's one key and bound to its name, so a file that was changed, cut short,
/// sealed elsewhere or moved to another name or site never opens: its reader gets nil, exactly as if it were absent,
/// and the store reports why with `SealEvent.dropped`. A write replaces a file whole or not at all.
public protocol SealedStore: Sendable {
    /// Seals `contents` and puts them in place of the file `name`, atomically: a crash leaves the old file or the new
    /// one, never a torn one.
    ///
    /// - Throws: `SealError` with `.keyUnavailable` or `.io`; the old file, if any, is then still in place.
    func write(_ contents: [UInt8], to name: SealedFileName) async throws(SealError)

    /// The contents of the file `name`, or nil when it is absent or did not open.
    ///
    /// A file that did not open is removed and reported as `SealEvent.dropped`; an absent one reports nothing.
    func read(_ name: SealedFileName) async -> [UInt8]?

    /// Seals a model's own file, `<name>-<site>`, under the same key and seal as the built-in files.
    ///
    /// - Throws: `SealError` with `.invalidName` when `name` is not a valid model name, or as ``write(_:to:)``.
    func keepFile(name: String, site: SiteID, contents: [UInt8]) async throws(SealError)

    /// A model's own file, or nil when it is absent, did not open, or `name` is not a valid model name.
    func keptFile(name: String, site: SiteID) async -> [UInt8]?

    /// Drops the file `name`, which opened as `contents` but does not read back (`error` says why): proven bad, it
    /// is removed and reported ``SealEvent/unreadable(file:error:)``, so its model starts empty and asks again. A
    /// file written since it was read holds other contents and stays.
    func discard(_ name: SealedFileName, holding contents: [UInt8], because error: SealedContentError) async

    /// Removes every file of `site` (the home was removed from this phone).
    ///
    /// - Throws: `SealError` with `.io` when a file could not be removed.
    func erase(site: SiteID) async throws(SealError)

    /// Removes every file of `site`, the kept file of `lastModel` last: the file that says the site is there (its
    /// pairing record), so a process killed part way leaves the site there with some of its files gone, which a
    /// launch reads without error, and never a forgotten site's files behind.
    ///
    /// - Throws: `SealError` with `.io` when a file could not be removed; the files before it are gone, the last
    ///   model's file is still there.
    func erase(site: SiteID, lastModel: String?) async throws(SealError)

    /// Removes every sealed file and the phone's key (the phone was signed out or handed on), so nothing of the
    /// previous household can be drawn or opened again.
    ///
    /// - Throws: `SealError` with `.io` or `.keyUnavailable` when something could not be removed.
    func eraseAll() async throws(SealError)

    /// Every sealed file on disk, by name, with its size.
    func files() async -> [SealedFileInfo]
}

extension SealedStore {
    /// A store that cannot order its removals erases as ``erase(site:)`` does.
    public func erase(site: SiteID, lastModel: String?) async throws(SealError) {
        try await erase(site: site)
    }
}
