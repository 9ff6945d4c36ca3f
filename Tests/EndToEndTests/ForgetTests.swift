import FTWClient
import FTWHeadlessTooling
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// `ftw-headless forget`: a site's files go with it, and `--all` takes the phone's key and every sealed file
/// (cache.md §5), leaving nothing behind.
@Suite struct ForgetTests {
    private static let otherSite = SiteID(rawValue: "0123456789abcdef")!

    /// A paired site with a file of a model beside its pairing, and another site's file.
    private static func pairedPhone(_ world: PhoneWorld) async throws -> PairedSite {
        let site = try await world.pair(try await world.link()).get()
        let store = world.folder.unlockedStore()
        try await store.keepFile(name: "prefs", site: site.site, contents: Array("eco".utf8))
        try await store.keepFile(name: "prefs", site: Self.otherSite, contents: Array("eco".utf8))
        return site
    }

    @Test func forgettingASiteErasesItsFilesAndNoOther() async throws {
        try await PhoneWorld.run { world in
            let site = try await Self.pairedPhone(world)
            let path = world.folder.url.path
            #expect(await HeadlessCommand.run(["forget", site.site.rawValue, "--data", path]) == 0)
            #expect(
                world.filesLeft() == [
                    ".lock", "phone.key", "sealed", "sealed/.key-id", "sealed/prefs-\(Self.otherSite)",
                ]
            )
            #expect(await HeadlessCommand.run(["forget", site.site.rawValue, "--data", path]) == 1)
        }
    }

    @Test func forgettingThePhoneLeavesNoFileBehind() async throws {
        try await PhoneWorld.run { world in
            _ = try await Self.pairedPhone(world)
            #expect(world.filesLeft()?.count == 6, "the key, the sealed folder, three files and the key's mark")
            #expect(await HeadlessCommand.run(["forget", "--all", "--data", world.folder.url.path]) == 0)
            #expect(world.filesLeft() == nil)
        }
    }
}
