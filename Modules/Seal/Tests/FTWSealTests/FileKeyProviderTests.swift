import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// The headless key file: 32 bytes, readable by its owner only, the same key until erased.
@Suite struct FileKeyProviderTests {
    @Test func theKeyFileIs32BytesReadableByItsOwnerOnly() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let key = try await FileKeyProvider(dataFolder: harness.folder).key()
        let path = harness.url(FileKeyProvider.fileName).path(percentEncoded: false)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try Array(Data(contentsOf: harness.url(FileKeyProvider.fileName))) == key)
        #expect(key.count == 32)
        #expect(harness.entries() == [FileKeyProvider.fileName])
    }

    @Test func theKeyStaysTheSameAcrossLaunches() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let first = try await FileKeyProvider(dataFolder: harness.folder).key()
        #expect(try await FileKeyProvider(dataFolder: harness.folder).key() == first)
    }

    @Test func launchesRacingToMakeTheKeyAgreeOnOne() async throws {
        // The race is between one caller's "no key yet" and another's creation, so run it often enough to hit it.
        for _ in 0..<50 {
            let harness = SealHarness()
            defer { harness.remove() }
            let keys = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<8 {
                    group.addTask { try await FileKeyProvider(dataFolder: harness.folder).key() }
                }
                return try await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
            }
            #expect(keys.count == 1)
            #expect(try await FileKeyProvider(dataFolder: harness.folder).key() == keys.first)
            #expect(harness.entries() == [FileKeyProvider.fileName])
        }
    }

    @Test func aKeyFileOfTheWrongSizeIsReplaced() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([1, 2, 3], as: FileKeyProvider.fileName)
        let key = try await FileKeyProvider(dataFolder: harness.folder).key()
        #expect(key.count == 32)
        #expect(try Array(Data(contentsOf: harness.url(FileKeyProvider.fileName))) == key)
        #expect(harness.entries() == [FileKeyProvider.fileName])
    }

    @Test func erasingTheKeyRemovesItsFile() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let provider = FileKeyProvider(dataFolder: harness.folder)
        let before = try await provider.key()
        try await provider.erase()
        #expect(harness.entries().isEmpty)
        #expect(try await provider.key() != before)
    }

    @Test func aFolderThatCannotBeMadeLeavesTheKeyUnavailable() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([1], as: "a-file")
        let provider = FileKeyProvider(dataFolder: harness.url("a-file").appending(component: "data"))
        #expect(await codeThrown { _ = try await provider.key() } == .keyUnavailable)
    }
}
