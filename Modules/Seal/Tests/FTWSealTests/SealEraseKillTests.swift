import FTWBus
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import Foundation
import Testing

/// Forget, kill-safe (issue 32): an erase killed after any one of its steps leaves a folder the next launch reads
/// without an error, that either forgot or did not, and never holds a file without the key that opens it.
@Suite struct SealEraseKillTests {
    private static let siteA = SealHarness.siteA
    private static let siteB = SealHarness.siteB

    /// The data folder (the key) and its sealed folder, filled with two sites' files.
    private struct Phone {
        let data = FileManager.default.temporaryDirectory.appending(component: "erase-kill-\(UUID().uuidString)")
        var sealed: URL { data.appending(component: "sealed") }
        let bus = EventBus<SealEvent>()

        func store(killedAfter step: Int? = nil) -> FileSealedStore {
            FileSealedStore(
                folder: sealed,
                keys: FileKeyProvider(dataFolder: data, sealedFolder: sealed, events: bus),
                events: bus,
                beforeRename: nil,
                openFailure: nil,
                lock: nil,
                afterRemoval: EraseKill(afterStep: step).hook
            )
        }

        func fill() async throws {
            let store = store()
            for site in [SealHarness.siteA, SealHarness.siteB] {
                try await store.write(Array("ring".utf8), to: .ring(site))
                try await store.write(Array("home".utf8), to: .home(site))
                try await store.keepFile(name: "pairing", site: site, contents: Array("paired".utf8))
                try await store.keepFile(name: "prefs", site: site, contents: Array("eco".utf8))
            }
        }

        /// What the next launch reads: every sealed file's contents, and every line the store had to say.
        func relaunch() async -> NextLaunch {
            await NextLaunch.read(dataFolder: data, sealedFolder: sealed, firstWrite: .snapshot(SealHarness.siteA))
        }

        func remove() { try? FileManager.default.removeItem(at: data) }
    }

    /// `forget --all`: eight files, the mark, then the key; a kill after each.
    @Test(arguments: 1...10) func eraseAllKilledAfterAStep(step: Int) async throws {
        let phone = Phone()
        defer { phone.remove() }
        try await phone.fill()
        await #expect(throws: SealError.self) { try await phone.store(killedAfter: step).eraseAll() }
        let next = await phone.relaunch()
        #expect(next.told == [], "step \(step): read without an error")
        #expect(next.unopened == [], "step \(step): every file left opens")
        if !next.files.isEmpty { #expect(next.keyExisted, "step \(step): files without their key") }
    }

    /// The whole erase, unkilled, leaves nothing.
    @Test func eraseAllUnkilledLeavesNoFileAndNoKey() async throws {
        let phone = Phone()
        defer { phone.remove() }
        try await phone.fill()
        try await phone.store().eraseAll()
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: phone.data.path)) ?? []) == ["sealed"])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: phone.sealed.path)) ?? []) == [])
    }

    /// `forget SITE`: its four files, the pairing record last; a kill after each leaves the site paired (some of
    /// its cache gone) or forgotten whole, and the other site untouched.
    @Test(arguments: 1...4) func eraseSiteKilledAfterAStep(step: Int) async throws {
        let phone = Phone()
        defer { phone.remove() }
        try await phone.fill()
        await #expect(throws: SealError.self) {
            try await phone.store(killedAfter: step).erase(site: Self.siteA, lastModel: "pairing")
        }
        let next = await phone.relaunch()
        #expect(next.told == [], "step \(step)")
        let siteA = next.files.filter { $0.hasSuffix("-\(Self.siteA)") && !$0.hasPrefix("snapshot-") }
        #expect(siteA.isEmpty || siteA.contains("pairing-\(Self.siteA)"), "step \(step): a site's files unpaired")
        #expect(next.files.filter { $0.hasSuffix("-\(Self.siteB)") }.count == 4, "step \(step)")
    }
}
