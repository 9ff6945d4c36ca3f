public import SealInterface

/// A sealed store whose reads take the file's bytes and then suspend until ``release()``: a test can record
/// something new while a model's sealed read is on its way and check that the older file does not win.
///
/// Writes, erases and listings go straight to the store it wraps.
public actor HeldReadStore: SealedStore {
    private let wrapped: any SealedStore
    private var holding = true
    private var held: [CheckedContinuation<Void, Never>] = []

    /// Wraps `store`, holding every read until ``release()``.
    public init(_ store: any SealedStore) {
        wrapped = store
    }

    /// How many reads are suspended now.
    public var heldReads: Int { held.count }

    /// Lets every held read, and every later one, return.
    public func release() {
        holding = false
        let waiting = held
        held = []
        for reader in waiting { reader.resume() }
    }

    /// Writes through to the wrapped store.
    public func write(_ contents: [UInt8], to name: SealedFileName) async throws(SealError) {
        try await wrapped.write(contents, to: name)
    }

    /// The bytes as they were when the read began, handed back only once the read is released.
    public func read(_ name: SealedFileName) async -> [UInt8]? {
        let bytes = await wrapped.read(name)
        if holding { await withCheckedContinuation { held.append($0) } }
        return bytes
    }

    /// Erases through the wrapped store.
    public func erase(site: SiteID) async throws(SealError) {
        try await wrapped.erase(site: site)
    }

    /// Erases through the wrapped store.
    public func eraseAll() async throws(SealError) {
        try await wrapped.eraseAll()
    }

    /// The wrapped store's files.
    public func files() async -> [SealedFileInfo] {
        await wrapped.files()
    }
}
