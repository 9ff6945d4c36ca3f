import FTWBus
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// A write the disk refuses (full, read-only) leaves the old file as it was, says which file and why, and the store
/// keeps working. The folders are tiny tmpfs mounts: the tests run as root, which no file mode stops.
@Suite(.enabled(if: ScratchMount.isPermitted, "mounting a tmpfs is not permitted here: the disk-full tests need one"))
struct SealWriteFailureTests {
    private static let site = SealHarness.siteA
    private let old = [UInt8](repeating: 0x11, count: 1_000)
    private let new = [UInt8](repeating: 0x22, count: 8_000)

    private func scratch() throws -> (ScratchMount, FileSealedStore, EventBus<SealEvent>) {
        let folder = FileManager.default.temporaryDirectory.appending(component: "seal-mount-\(UUID().uuidString)")
        let mount = try #require(ScratchMount(at: folder, bytes: 64 << 10))
        let bus = EventBus<SealEvent>()
        let store = FileSealedStore(folder: folder, keys: InMemoryKeyProvider(), events: bus)
        return (mount, store, bus)
    }

    @Test func aFullDiskKeepsTheOldFileAndSaysWhy() async throws {
        let (mount, store, bus) = try scratch()
        defer { mount.unmount() }
        let events = bus.subscribe()
        try await store.write(old, to: .tiles(Self.site))
        // Fill what is left, so the next write's temporary file cannot be written whole.
        let fillerPath = mount.folder.appending(component: "filler").path
        #expect(FileManager.default.createFile(atPath: fillerPath, contents: nil))
        let filler = try #require(FileHandle(forWritingAtPath: fillerPath))
        while (try? filler.write(contentsOf: Data(count: 4_096))) != nil {}
        try? filler.close()

        #expect(await codeThrown { try await store.write(new, to: .tiles(Self.site)) } == .io)
        #expect(await store.read(.tiles(Self.site)) == old, "the old file still opens")
        let names = try FileManager.default.contentsOfDirectory(atPath: mount.folder.path).sorted()
        #expect(names == [SealHarness.mark, "filler", "tiles-\(Self.site)"], "no temporary file is left behind")
        bus.finish()
        let failed = await events.reduce(into: [String]()) { if case .writeFailed = $1 { $0.append($1.description) } }
        #expect(failed.count == 1)
        #expect(failed.first?.hasPrefix("could not write tiles-\(Self.site), nothing on disk changed: write ") == true)
        #expect(failed.first?.hasSuffix("No space left on device") == true)
    }

    @Test func aReadOnlyFolderKeepsTheOldFileAndSaysWhy() async throws {
        let (mount, store, bus) = try scratch()
        defer { mount.unmount() }
        let events = bus.subscribe()
        try await store.write(old, to: .ring(Self.site))
        try #require(mount.makeReadOnly())

        #expect(await codeThrown { try await store.write(new, to: .ring(Self.site)) } == .io)
        #expect(
            await codeThrown { try await store.write(new, to: .ring(Self.site)) } == .io,
            "and again, still running"
        )
        #expect(await store.read(.ring(Self.site)) == old)
        bus.finish()
        let failed = await events.reduce(into: [String]()) { if case .writeFailed = $1 { $0.append($1.description) } }
        #expect(failed.count == 2)
        #expect(
            failed.first?.hasPrefix(
                "could not write ring-\(Self.site), nothing on disk changed: create .ring-\(Self.site).tmp-"
            ) == true
        )
        #expect(failed.first?.hasSuffix("Read-only file system") == true)
    }
}
