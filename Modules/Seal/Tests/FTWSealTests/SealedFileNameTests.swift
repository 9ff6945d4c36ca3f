import FTWSeal
import FTWSealInterface
import Testing

/// File names are built only from checked parts and parse back to the same value.
@Suite struct SealedFileNameTests {
    private let site = SealHarness.siteA

    @Test func builtInNamesAreKindDashSite() {
        #expect(SealedFileName.snapshot(site).fileName == "snapshot-0123456789abcdef")
        #expect(SealedFileName.home(site).fileName == "home-0123456789abcdef")
        #expect(SealedFileName.ring(site).fileName == "ring-0123456789abcdef")
        #expect(SealedFileName.tiles(site).fileName == "tiles-0123456789abcdef")
    }

    @Test func aKeptNameIsModelDashSite() throws {
        let name = try SealedFileName(kind: .kept, site: site, model: "planner-prefs")
        #expect(name.fileName == "planner-prefs-0123456789abcdef")
        #expect(name.model == "planner-prefs")
    }

    @Test(arguments: [
        "", "Prefs", "prefs_v2", "prefs.v2", "a/b", "-prefs", " prefs", "préfs", String(repeating: "a", count: 65),
        "snapshot", "home", "ring", "tiles", "kept",
    ])
    func anInvalidModelNameIsRefused(model: String) async {
        let harness = SealHarness()
        defer { harness.remove() }
        #expect(await codeThrown { _ = try SealedFileName(kind: .kept, site: site, model: model) } == .invalidName)
        let store = harness.store()
        #expect(await codeThrown { try await store.keepFile(name: model, site: site, contents: [1]) } == .invalidName)
        #expect(await store.keptFile(name: model, site: site) == nil)
        #expect(harness.entries().isEmpty)
    }

    @Test func aModelNameOfSixtyFourCharactersIsAccepted() throws {
        let model = String(repeating: "a", count: 64)
        #expect(try SealedFileName(kind: .kept, site: site, model: model).model == model)
    }

    @Test func aKindAndAModelMustAgree() async {
        #expect(await codeThrown { _ = try SealedFileName(kind: .kept, site: site) } == .invalidName)
        #expect(await codeThrown { _ = try SealedFileName(kind: .ring, site: site, model: "ring2") } == .invalidName)
    }

    @Test func everyNameParsesBack() throws {
        let names = try SealedFileKind.allCases.map { kind in
            try SealedFileName(kind: kind, site: site, model: kind == .kept ? "chargers" : nil)
        }
        for name in names {
            #expect(SealedFileName(fileName: name.fileName) == name)
        }
    }

    @Test(arguments: [
        "", "ring", "ring-", "ring0123456789abcdef", "ring-0123456789ABCDEF", "ring-0123456789abcde",
        ".ring-0123456789abcdef", "kept-0123456789abcdef", "-0123456789abcdef", "Ring-0123456789abcdef",
        "ring-0123456789abcdef.tmp", "phone.key", "é-0123456789abcdef",
    ])
    func aNameThatIsNoSealedFilesDoesNotParse(fileName: String) {
        #expect(SealedFileName(fileName: fileName) == nil)
    }
}
