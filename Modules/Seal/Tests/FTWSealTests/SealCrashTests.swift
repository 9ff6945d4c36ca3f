import FTWBus
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// A crash between writing the new file and renaming it over the old one loses nothing that was already on disk.
@Suite struct SealCrashTests {
    private struct Crash: Error {}

    private let old = Array("five minutes of the ring before the crash".utf8)
    private let new = Array("five minutes of the ring the crash cut short".utf8)

    @Test func aCrashBeforeTheRenameKeepsTheOldFile() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let name = SealedFileName.ring(SealHarness.siteA)
        try await harness.store().write(old, to: name)
        let crashing = harness.store(beforeRename: { throw Crash() })
        let error = await #expect(throws: SealError.self) { try await crashing.write(new, to: name) }
        #expect(error?.code == .io)
        #expect(error?.cause is Crash, "what stopped the write is kept as cause")
        #expect(await crashing.read(name) == old)
        #expect(harness.entries().count == 3, "the old file, the temporary one, the key's mark")
        #expect(await crashing.files().map(\.name) == [name])
    }

    @Test func theNextLaunchRemovesWhatTheCrashLeft() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let name = SealedFileName.ring(SealHarness.siteA)
        try await harness.store().write(old, to: name)
        _ = await codeThrown { try await harness.store(beforeRename: { throw Crash() }).write(new, to: name) }
        let relaunched = harness.store()
        #expect(harness.entries() == [SealHarness.mark, name.fileName])
        #expect(await relaunched.read(name) == old)
    }

    @Test func aCrashOnTheFirstWriteLeavesNoFile() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let name = SealedFileName.tiles(SealHarness.siteA)
        let crashing = harness.store(beforeRename: { throw Crash() })
        _ = await codeThrown { try await crashing.write(new, to: name) }
        #expect(await harness.store().read(name) == nil)
        #expect(harness.entries() == [SealHarness.mark], "no sealed file, only the mark of the folder's key")
        // The stand-in for the crash throws, so the write is reported failed; nothing was written or dropped.
        let events = await harness.recordedEvents()
        #expect(events.count == 1)
        #expect(events.allSatisfy { if case .writeFailed(name.fileName, _) = $0 { true } else { false } })
    }

    @Test func aStrayFileInTheFolderIsLeftAlone() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([1, 2, 3], as: ".notes.tmp-1")
        try harness.put([1, 2, 3], as: "README")
        let store = harness.store()
        try await store.eraseAll()
        #expect(harness.entries() == [".notes.tmp-1", "README"])
        #expect(await store.files().isEmpty)
    }
}
