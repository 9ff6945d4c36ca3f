import FTWBus
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that does not open is dropped only when it is proven damaged under its own key: the folder's mark names the
/// key that sealed its files, so another phone's key (or 32 random bytes) in the phone's place keeps every file,
/// writes over none, and says the key does not match; the right key back opens them all.
@Suite struct SealKeyMismatchTests {
    private static let contents = Array("the last readings".utf8)
    private static let site = SealHarness.siteA

    /// Found with another phone's `phone.key` in the data folder: the pairing record was dropped as if tampered, and
    /// the right key back did not bring it back.
    @Test func anotherPhonesKeyKeepsEveryFileWritesNothingAndTheRightKeyOpensThemAgain() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(Self.contents, to: .snapshot(Self.site))
        let sealed = try harness.bytes(of: .snapshot(Self.site))

        let otherPhone = harness.store(keys: InMemoryKeyProvider())
        #expect(await otherPhone.read(.snapshot(Self.site)) == nil)
        #expect(await codeThrown { try await otherPhone.write([1], to: .snapshot(Self.site)) } == .keyMismatch)
        #expect(try harness.bytes(of: .snapshot(Self.site)) == sealed, "kept, and not written over")
        #expect(await harness.store().read(.snapshot(Self.site)) == Self.contents, "the right key opens it again")

        let told = await harness.recordedEvents().filter(\.mustBeTold)
        #expect(told.count == 2)
        guard case .readFailed(let file, let error) = told.first else {
            Issue.record("not kept and reported: \(told)")
            return
        }
        #expect(file == "snapshot-\(Self.site)")
        #expect(error.code == .keyMismatch)
        #expect(error.message.contains("the phone's key is not the key that sealed the files in"), "\(error.message)")
        #expect(told.first?.description.hasPrefix("could not read snapshot-\(Self.site), left on disk: ") == true)
        guard case .writeFailed(_, let refusal) = told.last else { return }
        #expect(refusal.code == .keyMismatch)
    }

    @Test func aFolderAnOlderBuildSealedIsMarkedOnceItsKeyOpensAFileAndDropsWhatIsDamaged() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(Self.contents, to: .snapshot(Self.site))
        try await harness.store().write(Self.contents + Self.contents, to: .ring(Self.site))
        try FileManager.default.removeItem(at: harness.url(SealHarness.mark))
        var ring = try harness.bytes(of: .ring(Self.site))
        ring[ring.count - 1] ^= 0x01
        try harness.put(ring, as: "ring-\(Self.site)")

        await harness.expectDrop(of: "ring-\(Self.site)", reason: .authenticationFailed) {
            await harness.store().read(.ring(Self.site))
        }
        #expect(harness.entries() == [SealHarness.mark, "snapshot-\(Self.site)"], "the snapshot proved the key")
    }

    /// A launch only reads, and one whose files all open never asks whether the key is the folder's: it writes
    /// nothing (not even the mark of a folder an older build made) and pays for no HMAC before its first content.
    /// The first write marks the folder.
    @Test func readsThatAllOpenWriteNoMarkAndTheFirstWriteDoes() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(Self.contents, to: .snapshot(Self.site))
        try FileManager.default.removeItem(at: harness.url(SealHarness.mark))

        let launch = harness.store()
        #expect(await launch.read(.snapshot(Self.site)) == Self.contents)
        #expect(await launch.read(.ring(Self.site)) == nil)
        #expect(harness.entries() == ["snapshot-\(Self.site)"], "a launch that only read wrote nothing")
        try await launch.write(Self.contents, to: .ring(Self.site))
        #expect(harness.entries() == [SealHarness.mark, "ring-\(Self.site)", "snapshot-\(Self.site)"])
    }

    @Test func aFolderAnOlderBuildSealedUnderAnotherKeyKeepsEveryFile() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(Self.contents, to: .snapshot(Self.site))
        try FileManager.default.removeItem(at: harness.url(SealHarness.mark))

        #expect(await harness.store(keys: InMemoryKeyProvider()).read(.snapshot(Self.site)) == nil)
        #expect(harness.entries() == ["snapshot-\(Self.site)"])
        let told = await harness.recordedEvents().filter(\.mustBeTold)
        guard case .readFailed(_, let error) = told.first, told.count == 1 else {
            Issue.record("not kept and reported once: \(told)")
            return
        }
        #expect(error.code == .keyMismatch)
        #expect(error.message.contains("none of the sealed files in"))
    }

    /// Found with a data folder this user could not list: it read as "no paired site", and the advice to pair again.
    @Test func aFolderThatCannotBeListedIsSaidSoAndNotTakenForAnEmptyOne() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(Self.contents, to: .snapshot(Self.site))
        let refused = FileSealedStore(
            folder: harness.folder,
            keys: harness.keys,
            events: harness.bus,
            beforeRename: nil,
            openFailure: { $0 == "." ? EACCES : nil }
        )
        #expect(await refused.files().isEmpty)
        let told = await harness.recordedEvents().filter(\.mustBeTold)
        let folder = harness.folder.path(percentEncoded: false).dropLast()
        #expect(
            told.map(\.description) == [
                "could not list the sealed files in \(folder), left as they are: cannot list \(folder): Permission"
                    + " denied"
            ]
        )
    }
}
