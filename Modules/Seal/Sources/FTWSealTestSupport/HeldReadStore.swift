public import FTWBus
public import FTWSealInterface

/// A sealed store whose reads take the file's bytes and then suspend until ``release()``: a test can record
/// something new while a model's sealed read is on its way and check that the older file does not win. Made to hold
/// writes instead, it suspends each write before it reaches the disk: a write on its way while something else
/// happens (a forget's erase) lands when the test says.
///
/// Erases and listings go straight to the store it wraps.
public actor HeldReadStore: SealedStore {
    /// What the store holds until ``release()``.
    public enum Holding: Sendable {
        /// Every read, its bytes taken before it suspends.
        case reads
        /// Every write, before it reaches the wrapped store.
        case writes
    }

    private let wrapped: any SealedStore
    private let holds: Holding
    private var holding = true
    private var held: [CheckedContinuation<Void, Never>] = []

    /// Wraps `store`, holding every read (or every write) until ``release()``.
    public init(_ store: any SealedStore, holding: Holding = .reads) {
        wrapped = store
        holds = holding
    }

    /// How many reads (writes, for a store that holds them) are suspended now.
    public var heldReads: Int { held.count }

    /// Lets every held read, and every later one, return.
    public func release() {
        holding = false
        let waiting = held
        held = []
        for reader in waiting { reader.resume() }
    }

    /// Writes through to the wrapped store; a store that holds writes first waits for ``release()``.
    public func write(_ contents: [UInt8], to name: SealedFileName) async throws(SealError) {
        if holds == .writes, holding { await withCheckedContinuation { held.append($0) } }
        try await wrapped.write(contents, to: name)
    }

    /// The bytes as they were when the read began, handed back only once the read is released (a store that holds
    /// writes hands them back at once).
    public func read(_ name: SealedFileName) async -> [UInt8]? {
        let bytes = await wrapped.read(name)
        if holds == .reads, holding { await withCheckedContinuation { held.append($0) } }
        return bytes
    }

    /// Passes the drop of a file proven bad to the wrapped store.
    public func discard(_ name: SealedFileName, holding contents: [UInt8], because error: SealedContentError) async {
        await wrapped.discard(name, holding: contents, because: error)
    }

    /// Erases through the wrapped store.
    public func erase(site: SiteID) async throws(SealError) {
        try await wrapped.erase(site: site)
    }

    /// Erases through the wrapped store, in its order.
    public func erase(site: SiteID, lastModel: String?) async throws(SealError) {
        try await wrapped.erase(site: site, lastModel: lastModel)
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

extension HeldReadStore {
    /// Races a newer truth against `service`'s launch read: starts the read, which this store holds, then the
    /// service's run beside it; `meanwhile` drives the world while the read is held, then the read is let go,
    /// `afterwards` runs, and the run is cancelled. Call it where the world's tasks run (inside its simulation).
    ///
    /// - Parameters:
    ///   - service: The service whose launch read is held.
    ///   - settle: Lets the world run until nothing more can happen.
    ///   - meanwhile: Drives the world while the read is held.
    ///   - afterwards: Runs once the read is let go, before the run is cancelled.
    /// - Returns: How many reads were held when the run started: 1 for a service that reads one file.
    public func race(
        _ service: any ClientService,
        settle: @escaping @Sendable () async -> Void,
        meanwhile: @escaping @Sendable () async -> Void,
        afterwards: @escaping @Sendable () async -> Void = {}
    ) async -> Int {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await service.restore() }
            await settle()
            let heldAtRun = heldReads
            group.addTask { try? await service.run() }
            await settle()
            await meanwhile()
            release()
            await settle()
            await afterwards()
            group.cancelAll()
            return heldAtRun
        }
    }
}
