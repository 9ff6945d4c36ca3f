import FTWBus
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import Foundation
import Testing

/// Removing a home removes its files; removing the phone removes every file and the key, so nothing of the
/// previous household can be drawn or opened again.
@Suite struct SealEraseTests {
    private let contents = Array("chargers: garage 11 kW, idle".utf8)

    @Test func erasingASiteRemovesExactlyItsFiles() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        for site in [SealHarness.siteA, SealHarness.siteB] {
            for name in [SealedFileName.snapshot(site), .home(site), .ring(site), .tiles(site)] {
                try await store.write(contents, to: name)
            }
            try await store.keepFile(name: "chargers", site: site, contents: contents)
        }
        try await store.erase(site: SealHarness.siteA)
        let left = await store.files().map(\.name.fileName)
        let siteB = SealHarness.siteB
        #expect(left == ["chargers-\(siteB)", "home-\(siteB)", "ring-\(siteB)", "snapshot-\(siteB)", "tiles-\(siteB)"])
        #expect(harness.entries() == [SealHarness.mark] + left)
        #expect(await store.read(.ring(SealHarness.siteA)) == nil)
        #expect(await store.read(.ring(siteB)) == contents)
        let events = await harness.recordedEvents()
        #expect(events.filter { if case .written = $0 { false } else { true } } == [.erasedSite(SealHarness.siteA)])
    }

    @Test func erasingThePhoneLeavesNoFileAndAFreshKey() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let keys = FileKeyProvider(dataFolder: harness.folder)
        let store = harness.store(keys: keys)
        try await store.write(contents, to: .snapshot(SealHarness.siteA))
        try await store.keepFile(name: "prefs", site: SealHarness.siteB, contents: contents)
        _ = await codeThrown {
            try await harness.store(keys: keys, beforeRename: { throw CancellationError() })
                .write(contents, to: .ring(SealHarness.siteA))
        }
        let sealedBefore = try harness.bytes(of: .snapshot(SealHarness.siteA))
        let keyBefore = try await keys.key()
        #expect(harness.entries().count == 5, "two files, a temporary one, the key's mark, the key")

        try await store.eraseAll()
        #expect(harness.entries().isEmpty)
        #expect(await harness.recordedEvents().last == .erasedAll)

        let nextPhone = FileSealedStore(folder: harness.folder, keys: keys, events: .init())
        try harness.put(sealedBefore, as: "snapshot-\(SealHarness.siteA)")
        #expect(await nextPhone.read(.snapshot(SealHarness.siteA)) == nil)
        // A file that escaped the erasure holds back a new key, which would orphan it, until it is gone too.
        #expect(await codeThrown { _ = try await keys.key() } == .keyMissing)
        try FileManager.default.removeItem(at: harness.url("snapshot-\(SealHarness.siteA)"))
        #expect(try await keys.key() != keyBefore)
    }

    @Test func theStoreWritesUnderTheNewKeyAfterErasingThePhone() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write(contents, to: .home(SealHarness.siteA))
        try await store.eraseAll()
        try await store.write(contents, to: .home(SealHarness.siteA))
        #expect(await harness.store().read(.home(SealHarness.siteA)) == contents)
    }

    @Test func aKeyFetchedAcrossAnEraseIsNotUsed() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let keys = GatedKeyProvider()
        let store = harness.store(keys: keys)
        async let written: Void = store.write(contents, to: .ring(SealHarness.siteA))
        await keys.firstFetchIsWaiting()
        try await store.eraseAll()
        keys.release()
        try await written
        // A later launch holds only the key the provider has now; the file must open under it.
        #expect(await harness.store(keys: keys).read(.ring(SealHarness.siteA)) == contents)
    }

    @Test func aFailedKeyErasureStillRemovesTheFiles() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(contents, to: .tiles(SealHarness.siteA))
        #expect(await codeThrown { try await harness.store(keys: FailingKeyProvider()).eraseAll() } == .keyUnavailable)
        #expect(harness.entries().isEmpty)
    }
}
