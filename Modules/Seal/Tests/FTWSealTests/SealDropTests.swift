import FTWBus
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import FTWTestingTraits
import Foundation
import Testing

/// A file that does not open reads as nil, is gone afterwards, and is reported once with the reason: never a trap,
/// never a wrong value.
@Suite struct SealDropTests {
    /// A byte to flip in a sealed file of 20 bytes of contents (70 bytes on disk), and the reason it must give.
    struct Flip: Sendable, CustomTestStringConvertible {
        let place: String
        let offset: Int
        let reason: SealError.Code
        var testDescription: String { "\(place) (byte \(offset))" }
    }

    private static let contents = [UInt8](repeating: 0x42, count: 20)
    private static let site = SealHarness.siteA

    static let flips = [
        Flip(place: "magic", offset: 0, reason: .badMagic),
        Flip(place: "version", offset: 4, reason: .unknownVersion),
        Flip(place: "kind", offset: 5, reason: .wrongKind),
        Flip(place: "site, first digit", offset: 6, reason: .wrongSite),
        Flip(place: "site, last digit", offset: 21, reason: .wrongSite),
        Flip(place: "nonce", offset: 22, reason: .authenticationFailed),
        Flip(place: "ciphertext", offset: 40, reason: .authenticationFailed),
        Flip(place: "tag, first byte", offset: 54, reason: .authenticationFailed),
        Flip(place: "tag, last byte", offset: 69, reason: .authenticationFailed),
    ]

    @Test(arguments: flips)
    func aFlippedByteDropsTheFile(flip: Flip) async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write(Self.contents, to: .ring(Self.site))
        var file = try harness.bytes(of: .ring(Self.site))
        file[flip.offset] ^= 0x01
        try harness.put(file, as: "ring-\(Self.site)")
        await harness.expectDrop(of: "ring-\(Self.site)", reason: flip.reason) { await store.read(.ring(Self.site)) }
    }

    @Test(.ownThread) func aFileCutAtAnyLengthDrops() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        var expected: [SealEvent] = []
        let file = "tiles-\(Self.site)"
        for length in 0..<(Self.contents.count + 50) {
            try await store.write(Self.contents, to: .tiles(Self.site))
            try harness.put(Array(try harness.bytes(of: .tiles(Self.site)).prefix(length)), as: file)
            #expect(await store.read(.tiles(Self.site)) == nil, "cut to \(length) bytes")
            #expect(!harness.exists(.tiles(Self.site)))
            // Past the header, nonce and tag a cut cannot be told from a changed byte: both fail the tag.
            let reason: SealError.Code = length < 50 ? .truncated : .authenticationFailed
            expected += [.written(file: file, bytes: 70), .dropped(file: file, reason: reason)]
        }
        #expect(await harness.recordedEvents() == expected)
    }

    @Test func oneSitesFileCopiedOverAnothersDrops() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        let other = SealHarness.siteB
        try await store.write(Self.contents, to: .ring(Self.site))
        try await store.write([9, 9], to: .ring(other))
        try harness.put(try harness.bytes(of: .ring(Self.site)), as: "ring-\(other)")
        #expect(await store.read(.ring(Self.site)) == Self.contents)
        await harness.expectDrop(of: "ring-\(other)", reason: .wrongSite) { await store.read(.ring(other)) }
    }

    @Test func aRingRenamedToTilesDrops() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write(Self.contents, to: .ring(Self.site))
        try FileManager.default.moveItem(at: harness.url("ring-\(Self.site)"), to: harness.url("tiles-\(Self.site)"))
        await harness.expectDrop(of: "tiles-\(Self.site)", reason: .wrongKind) { await store.read(.tiles(Self.site)) }
        #expect(harness.entries() == [SealHarness.mark])
    }

    @Test func aKeptFileRenamedToAnotherModelDrops() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.keepFile(name: "prefs", site: Self.site, contents: Self.contents)
        try FileManager.default.moveItem(at: harness.url("prefs-\(Self.site)"), to: harness.url("plan-\(Self.site)"))
        await harness.expectDrop(of: "plan-\(Self.site)", reason: .authenticationFailed) {
            await store.keptFile(name: "plan", site: Self.site)
        }
        #expect(harness.entries() == [SealHarness.mark])
    }

    /// Version 0, which no build wrote; a newer build's version is kept (`SealNewerFormatTests`).
    @Test func aFileOfAVersionNoBuildWroteDrops() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write(Self.contents, to: .home(Self.site))
        var file = try harness.bytes(of: .home(Self.site))
        file[4] = 0
        try harness.put(file, as: "home-\(Self.site)")
        await harness.expectDrop(of: "home-\(Self.site)", reason: .unknownVersion) {
            await store.read(.home(Self.site))
        }
    }

    @Test(.ownThread) func garbageNeverTrapsAndAlwaysDrops() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        // A folder sealed under the store's key, so garbage that reaches the cipher is proven damaged.
        try await store.write(Self.contents, to: .snapshot(Self.site))
        var random = SplitMix64(seed: 2026)
        let header = Array("FTWS".utf8) + [1, 3] + Array(Self.site.rawValue.utf8)
        var expected: [SealEvent] = [.written(file: "snapshot-\(Self.site)", bytes: 70)]
        for round in 0..<200 {
            let noise = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Every other round starts with a good header, so the garbage reaches the cipher.
            let file = round.isMultiple(of: 2) ? noise : header + noise
            try harness.put(file, as: "ring-\(Self.site)")
            #expect(await store.read(.ring(Self.site)) == nil)
            #expect(!harness.exists(.ring(Self.site)))
            let reason: SealError.Code =
                file.count < 50 ? .truncated : round.isMultiple(of: 2) ? .badMagic : .authenticationFailed
            expected.append(.dropped(file: "ring-\(Self.site)", reason: reason))
        }
        #expect(await harness.recordedEvents() == expected)
    }

    @Test func aMissingKeyKeepsTheFileForLater() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(Self.contents, to: .ring(Self.site))
        let locked = harness.store(keys: FailingKeyProvider())
        #expect(await locked.read(.ring(Self.site)) == nil)
        #expect(harness.exists(.ring(Self.site)))
        #expect(await harness.store().read(.ring(Self.site)) == Self.contents)
        let events = await harness.recordedEvents()
        #expect(!events.contains { if case .dropped = $0 { true } else { false } })
        #expect(events.contains(.readFailed(file: "ring-\(Self.site)", error: SealError(.keyUnavailable, "locked"))))
    }

    @Test func aMissingKeyRefusesTheWrite() async {
        let harness = SealHarness()
        defer { harness.remove() }
        #expect(
            await codeThrown { try await harness.store(keys: FailingKeyProvider()).write([1], to: .ring(Self.site)) }
                == .keyUnavailable
        )
        #expect(harness.entries().isEmpty)
    }

    @Test func aKeyOfTheWrongSizeIsRefused() async {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store(keys: InMemoryKeyProvider(key: [1, 2, 3]))
        #expect(await codeThrown { try await store.write([1], to: .ring(Self.site)) } == .keyUnavailable)
        #expect(harness.entries().isEmpty)
    }

    @Test func anUnwritableFolderIsAnIOError() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try harness.put([1], as: "not-a-folder")
        let store = FileSealedStore(folder: harness.url("not-a-folder"), keys: harness.keys, events: harness.bus)
        #expect(await codeThrown { try await store.write([1], to: .ring(Self.site)) } == .io)
    }

    @Test func aMissingKeyReportsTheWriteThatDidNotHappen() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        _ = await codeThrown { try await harness.store(keys: FailingKeyProvider()).write([1], to: .ring(Self.site)) }
        let events = await harness.recordedEvents()
        #expect(events == [.writeFailed(file: "ring-\(Self.site)", error: SealError(.keyUnavailable, "locked"))])
        #expect(events.map(\.description) == ["could not write ring-\(Self.site), nothing on disk changed: locked"])
    }
}
