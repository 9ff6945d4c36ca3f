import FTWBus
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The key file is used only when it is safe: readable by its owner alone, a regular file, 32 bytes. A lost or
/// broken key is said to be exactly that, and never replaced while sealed files made under it remain.
@Suite struct KeyFileSafetyTests {
    private static let site = SealHarness.siteA

    private func mode(of url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    /// The error `body` throws, or nil.
    private func errorThrown(by body: () async throws -> Void) async -> SealError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? SealError
        }
    }

    @Test func aKeyReadableByOthersIsTightenedAndSaidSo() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let key = [UInt8](repeating: 3, count: 32)
        try harness.put(key, as: FileKeyProvider.fileName)
        #expect(chmod(harness.url(FileKeyProvider.fileName).path, 0o644) == 0)
        let provider = FileKeyProvider(dataFolder: harness.folder, events: harness.bus)
        #expect(try await provider.key() == key)
        #expect(try mode(of: harness.url(FileKeyProvider.fileName)) == 0o600)
        #expect(
            await harness.recordedEvents().map(\.description) == [
                "\(provider.path) was readable by others (mode 0644): made it 0600"
            ]
        )
    }

    @Test func anotherUsersKeyReadableByOthersIsRefused() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([UInt8](repeating: 3, count: 32), as: FileKeyProvider.fileName)
        let path = harness.url(FileKeyProvider.fileName).path
        #expect(chmod(path, 0o640) == 0)
        try #require(chown(path, 4242, 4242) == 0, "chown needs root")
        let provider = FileKeyProvider(dataFolder: harness.folder)
        let error = await errorThrown { _ = try await provider.key() }
        #expect(error?.code == .keyExposed)
        #expect(
            error?.message
                == "\(path) has mode 0640 and belongs to uid 4242, not to this user (uid \(geteuid())): only its owner may make it 0600"
        )
        #expect(try mode(of: harness.url(FileKeyProvider.fileName)) == 0o640, "not ours to change")
    }

    @Test func aMissingKeyIsNotRemadeOverFilesItWouldOrphan() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let provider = FileKeyProvider(dataFolder: harness.folder)
        try await harness.store(keys: provider).write([1, 2], to: .ring(Self.site))
        try await harness.store(keys: provider).keepFile(name: "pairing", site: Self.site, contents: [3])
        try FileManager.default.removeItem(at: harness.url(FileKeyProvider.fileName))

        let error = await errorThrown { _ = try await FileKeyProvider(dataFolder: harness.folder).key() }
        #expect(error?.code == .keyMissing)
        #expect(
            error?.message
                == "\(provider.path) is missing, and 2 sealed files in \(harness.folder.path) open only under the key it held: restore the key, or erase them (forget --all)"
        )
        let relaunched = harness.store(keys: FileKeyProvider(dataFolder: harness.folder))
        #expect(await relaunched.keptFile(name: "pairing", site: Self.site) == nil)
        #expect(
            harness.entries() == [SealHarness.mark, "pairing-\(Self.site)", "ring-\(Self.site)"],
            "no key made, no file removed"
        )
        let events = await harness.recordedEvents().filter { if case .written = $0 { false } else { true } }
        #expect(events == [.readFailed(file: "pairing-\(Self.site)", error: try #require(error))])
    }

    @Test func aKeyOfTheWrongSizeIsNotReplacedOverFilesItWouldOrphan() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let provider = FileKeyProvider(dataFolder: harness.folder)
        try await harness.store(keys: provider).write([1, 2], to: .tiles(Self.site))
        try harness.put([1, 2, 3], as: FileKeyProvider.fileName)
        let error = await errorThrown { _ = try await FileKeyProvider(dataFolder: harness.folder).key() }
        #expect(error?.code == .keyMalformed)
        #expect(
            error?.message.hasPrefix("\(provider.path) holds 3 bytes, not a 32-byte key, and 1 sealed file in ") == true
        )
        #expect(try Array(Data(contentsOf: harness.url(FileKeyProvider.fileName))) == [1, 2, 3], "left as it was")
    }

    @Test func aKeyThatIsNotAFileIsRefusedWithoutBlocking() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([], as: "placeholder")
        let path = harness.url(FileKeyProvider.fileName).path
        #expect(mkfifo(path, 0o600) == 0)
        let error = await errorThrown { _ = try await FileKeyProvider(dataFolder: harness.folder).key() }
        #expect(error == SealError(.notRegularFile, "\(path) is a named pipe, not a regular file"))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        let linked = await errorThrown { _ = try await FileKeyProvider(dataFolder: harness.folder).key() }
        #expect(linked == SealError(.notRegularFile, "\(path) is a symbolic link, not a regular file"))
    }

    @Test func aHugeKeyFileIsNotRead() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([], as: FileKeyProvider.fileName)
        #expect(truncate(harness.url(FileKeyProvider.fileName).path, 1 << 30) == 0)
        let key = try await FileKeyProvider(dataFolder: harness.folder).key()
        #expect(try Array(Data(contentsOf: harness.url(FileKeyProvider.fileName))) == key, "no sealed file: replaced")
    }

    @Test func theDataFolderAndTheSealedFolderAreMade0700() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let sealed = harness.folder.appending(component: "sealed")
        let keys = FileKeyProvider(dataFolder: harness.folder, sealedFolder: sealed)
        try await FileSealedStore(folder: sealed, keys: keys, events: harness.bus).write([1], to: .ring(Self.site))
        #expect(try mode(of: harness.folder) == 0o700)
        #expect(try mode(of: sealed) == 0o700)
        #expect(try mode(of: harness.url(FileKeyProvider.fileName)) == 0o600)
    }

    @Test(arguments: ["missing", "malformed", "exposed"])
    func erasingThePhoneRemovesEveryFileWhateverTheKey(state: String) async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let sealed = harness.folder.appending(component: "sealed")
        let keys = FileKeyProvider(dataFolder: harness.folder, sealedFolder: sealed)
        let store = FileSealedStore(folder: sealed, keys: keys, events: harness.bus)
        try await store.write([1], to: .ring(Self.site))
        try await store.keepFile(name: "pairing", site: SealHarness.siteB, contents: [2])
        let keyPath = harness.url(FileKeyProvider.fileName).path
        switch state {
        case "missing":
            try FileManager.default.removeItem(atPath: keyPath)
        case "malformed":
            try harness.put([9], as: FileKeyProvider.fileName)
        default:
            #expect(chmod(keyPath, 0o644) == 0)
            #expect(chown(keyPath, 4242, 4242) == 0)
        }
        let relaunched = FileSealedStore(
            folder: sealed,
            keys: FileKeyProvider(dataFolder: harness.folder, sealedFolder: sealed),
            events: harness.bus
        )
        try await relaunched.eraseAll()
        #expect(harness.entries() == ["sealed"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: sealed.path).isEmpty)
    }
}
