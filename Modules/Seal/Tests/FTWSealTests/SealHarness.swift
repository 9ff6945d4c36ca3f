import FTWBus
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// A fresh temporary folder, a bus already listened to, and stores over that folder: one per test.
struct SealHarness {
    let folder: URL
    let keys: InMemoryKeyProvider
    let bus = EventBus<SealEvent>()
    private let events: BusStream<SealEvent>

    static let siteA = SiteID(rawValue: "0123456789abcdef")!
    static let siteB = SiteID(rawValue: "fedcba9876543210")!
    /// The file in which a store marks the key its folder's files are sealed under, written before its first write.
    static let mark = ".key-id"

    init(keys: InMemoryKeyProvider = InMemoryKeyProvider()) {
        folder = FileManager.default.temporaryDirectory.appending(
            component: "seal-tests-\(UUID().uuidString)",
            directoryHint: .isDirectory
        )
        self.keys = keys
        events = bus.subscribe()
    }

    /// A store over the folder; each call stands for one launch of the app.
    func store(
        keys: (any KeyProvider)? = nil,
        beforeRename: (@Sendable () throws -> Void)? = nil
    ) -> FileSealedStore {
        FileSealedStore(folder: folder, keys: keys ?? self.keys, events: bus, beforeRename: beforeRename)
    }

    /// Every event published so far, in order; the bus is finished, so call this once, at the end.
    func recordedEvents() async -> [SealEvent] {
        bus.finish()
        var recorded: [SealEvent] = []
        for await event in events { recorded.append(event) }
        return recorded
    }

    /// Checks that `read` gets nil, the file `fileName` is gone, and the one event beside writes is its `.dropped`
    /// with `reason`; the bus is finished, so call this once, at the end.
    func expectDrop(
        of fileName: String,
        reason: SealError.Code,
        when read: () async -> [UInt8]?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        #expect(await read() == nil, sourceLocation: sourceLocation)
        #expect(!entries().contains(fileName), sourceLocation: sourceLocation)
        let events = await recordedEvents().filter { if case .written = $0 { false } else { true } }
        #expect(events == [.dropped(file: fileName, reason: reason)], sourceLocation: sourceLocation)
    }

    func bytes(of name: SealedFileName) throws -> [UInt8] {
        Array(try Data(contentsOf: url(name.fileName)))
    }

    func put(_ bytes: [UInt8], as fileName: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: url(fileName))
    }

    func exists(_ name: SealedFileName) -> Bool {
        FileManager.default.fileExists(atPath: url(name.fileName).path(percentEncoded: false))
    }

    /// Everything in the folder, sorted: sealed files, temporary files, the key's mark, a key file.
    func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []).sorted()
    }

    func url(_ fileName: String) -> URL {
        folder.appending(component: fileName, directoryHint: .notDirectory)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The code of the `SealError` that `body` throws, or nil when it throws none (or another error): tests compare
/// codes, not messages.
func codeThrown(by body: () async throws -> Void) async -> SealError.Code? {
    do {
        try await body()
        return nil
    } catch {
        return (error as? SealError)?.code
    }
}
