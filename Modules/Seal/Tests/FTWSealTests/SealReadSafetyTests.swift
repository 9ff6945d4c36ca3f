import FTWBus
import FTWSeal
import FTWSealInterface
import FTWTestingTraits
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What sits at a sealed file's name is read only when it is a regular file no larger than its kind's limit: never
/// through a link, never from a pipe or a device, never whole when it is huge. A file the file system refuses now is
/// left for a later launch; only a file proven bad is removed.
@Suite struct SealReadSafetyTests {
    private static let site = SealHarness.siteA
    private static let ring = "ring-\(site)"

    /// Reads `ring-<site>` from a fresh store and returns what a person would see: the contents, the events.
    private func readRing(_ harness: SealHarness) async -> ([UInt8]?, [SealEvent]) {
        let contents = await harness.store().read(.ring(Self.site))
        return (contents, await harness.recordedEvents())
    }

    @Test func aLinkToAnEndlessDeviceIsRefusedUnreadAndLeft() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([], as: "placeholder")
        try FileManager.default.createSymbolicLink(
            atPath: harness.url(Self.ring).path,
            withDestinationPath: "/dev/zero"
        )
        let (contents, events) = await readRing(harness)
        #expect(contents == nil)
        #expect(harness.entries().contains(Self.ring), "a link is not ours to remove")
        #expect(
            events.map(\.description) == [
                "could not read \(Self.ring), left on disk: \(harness.url(Self.ring).path) is a symbolic link, not a regular file"
            ]
        )
    }

    @Test func aNamedPipeIsRefusedWithoutBlocking() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([], as: "placeholder")
        #expect(mkfifo(harness.url(Self.ring).path, 0o600) == 0)
        let (contents, events) = await readRing(harness)
        #expect(contents == nil)
        #expect(harness.entries().contains(Self.ring))
        #expect(
            events == [
                .readFailed(
                    file: Self.ring,
                    error: SealError(
                        .notRegularFile,
                        "\(harness.url(Self.ring).path) is a named pipe, not a regular file"
                    )
                )
            ]
        )
    }

    @Test func aDeviceNodeIsRefused() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([], as: "placeholder")
        // /dev/zero's numbers (1, 5); making a device node needs root, which the tests run as.
        try #require(mknod(harness.url(Self.ring).path, S_IFCHR | 0o600, (1 << 8) | 5) == 0, "mknod needs root")
        let (contents, events) = await readRing(harness)
        #expect(contents == nil)
        #expect(harness.entries().contains(Self.ring))
        #expect(
            events.map(\.description) == [
                "could not read \(Self.ring), left on disk: \(harness.url(Self.ring).path) is a device, not a regular file"
            ]
        )
    }

    @Test func aFolderInAFilesPlaceIsRefusedAndLeft() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.url(Self.ring), withIntermediateDirectories: true)
        let (contents, events) = await readRing(harness)
        #expect(contents == nil)
        #expect(harness.entries() == [Self.ring])
        #expect(
            events == [
                .readFailed(
                    file: Self.ring,
                    error: SealError(.notRegularFile, "\(harness.url(Self.ring).path) is a folder, not a regular file")
                )
            ]
        )
    }

    /// Each kind's limit: a file one byte past it is dropped unread (a sparse file, so the test costs no disk), and
    /// a write one byte past it is refused, leaving the old file.
    @Test(
        .ownThread,
        arguments: [
            SealedFileName.snapshot(site), .home(site), .ring(site), .tiles(site),
            try! SealedFileName(kind: .kept, site: site, model: "pairing"),
            try! SealedFileName(kind: .kept, site: site, model: "prices"),
            try! SealedFileName(kind: .kept, site: site, model: "some-model"),
        ]
    )
    func aFilePastItsKindsLimitIsDroppedUnread(name: SealedFileName) async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write([UInt8](repeating: 1, count: name.sizeLimit - 50), to: name)
        #expect(await store.read(name)?.count == name.sizeLimit - 50, "a file at the limit opens")
        #expect(
            await codeThrown { try await store.write([UInt8](repeating: 2, count: name.sizeLimit - 49), to: name) }
                == .tooLarge
        )
        #expect(await store.read(name)?.count == name.sizeLimit - 50, "a refused write leaves the old file")
        #expect(truncate(harness.url(name.fileName).path, off_t(name.sizeLimit + 1)) == 0)
        #expect(await store.read(name) == nil)
        #expect(!harness.exists(name))
        let events = await harness.recordedEvents().filter { if case .written = $0 { false } else { true } }
        #expect(events.count == 2)
        #expect(events.last == .dropped(file: name.fileName, reason: .tooLarge))
        #expect(
            events.first?.description
                == "could not write \(name), nothing on disk changed: \(name) would hold \(name.sizeLimit + 1) bytes, more than the \(name.sizeLimit) its kind may"
        )
    }

    @Test func aHugeTilesFileCostsNoMemory() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([], as: "tiles-\(Self.site)")
        #expect(truncate(harness.url("tiles-\(Self.site)").path, 200 << 20) == 0)
        let peakBefore = Self.peakResidentBytes()
        let started = ContinuousClock.now
        #expect(await harness.store().read(.tiles(Self.site)) == nil)
        #expect(ContinuousClock.now - started < .seconds(1), "refused from its size, not read")
        #expect(Self.peakResidentBytes() - peakBefore < 64 << 20, "the process never held the file")
        #expect(await harness.recordedEvents() == [.dropped(file: "tiles-\(Self.site)", reason: .tooLarge)])
        #expect(harness.entries().isEmpty)
    }

    /// The process's peak resident memory so far, in bytes (Linux counts `ru_maxrss` in KiB).
    private static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// A file the file system refuses now (no permission, no descriptor left, a failing disk) may open next launch.
    @Test(arguments: [EACCES, EMFILE, EIO])
    func aFileThatCannotBeReadNowIsLeftAndReported(code: Int32) async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write([7, 7, 7], to: .ring(Self.site))
        let refusing = FileSealedStore(
            folder: harness.folder,
            keys: harness.keys,
            events: harness.bus,
            beforeRename: nil
        ) { _ in code }
        #expect(await refusing.read(.ring(Self.site)) == nil)
        #expect(harness.exists(.ring(Self.site)))
        #expect(await harness.store().read(.ring(Self.site)) == [7, 7, 7], "it opens once the file system lets it")
        let failed = await harness.recordedEvents().filter { if case .readFailed = $0 { true } else { false } }
        let reason = String(cString: strerror(code))
        #expect(
            failed.map(\.description) == [
                "could not read \(Self.ring), left on disk: open \(harness.url(Self.ring).path): \(reason)"
            ]
        )
    }
}
