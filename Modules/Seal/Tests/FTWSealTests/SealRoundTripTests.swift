import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// What a model writes is what it reads back, on this launch and the next, and nothing of it shows on disk.
@Suite struct SealRoundTripTests {
    private let contents = Array("the heat pump drew 2.1 kW at 07:15 while the car charged".utf8)

    @Test(arguments: [SealedFileKind.snapshot, .home, .ring, .tiles])
    func aBuiltInFileReadsBackWhatWasWritten(kind: SealedFileKind) async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let name = try SealedFileName(kind: kind, site: SealHarness.siteA)
        try await harness.store().write(contents, to: name)
        #expect(await harness.store().read(name) == contents)
        let file = "\(kind.rawValue)-\(SealHarness.siteA)"
        #expect(await harness.recordedEvents() == [.written(file: file, bytes: contents.count + 50)])
    }

    @Test func aKeptFileReadsBackWhatWasKept() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().keepFile(name: "planner-prefs", site: SealHarness.siteA, contents: contents)
        #expect(await harness.store().keptFile(name: "planner-prefs", site: SealHarness.siteA) == contents)
        #expect(harness.entries() == [SealHarness.mark, "planner-prefs-\(SealHarness.siteA)"])
    }

    @Test func emptyContentsRoundTrip() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write([], to: .home(SealHarness.siteA))
        #expect(await store.read(.home(SealHarness.siteA)) == [])
    }

    @Test func aSecondWriteReplacesTheFirst() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write([1, 2, 3], to: .ring(SealHarness.siteA))
        try await store.write(contents, to: .ring(SealHarness.siteA))
        #expect(await store.read(.ring(SealHarness.siteA)) == contents)
        #expect(harness.entries() == [SealHarness.mark, "ring-\(SealHarness.siteA)"])
    }

    @Test func anAbsentFileReadsAsNilAndReportsNothing() async {
        let harness = SealHarness()
        defer { harness.remove() }
        #expect(await harness.store().read(.tiles(SealHarness.siteA)) == nil)
        #expect(await harness.recordedEvents().isEmpty)
    }

    @Test func theBytesOnDiskHideThePlaintext() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(contents, to: .snapshot(SealHarness.siteA))
        let file = try harness.bytes(of: .snapshot(SealHarness.siteA))
        for window in stride(from: 0, to: contents.count - 8, by: 1) {
            let piece = contents[window..<(window + 8)]
            #expect(!file.indices.dropLast(7).contains { file[$0..<($0 + 8)].elementsEqual(piece) })
        }
    }

    @Test func twoWritesOfTheSameContentsDifferOnDisk() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write(contents, to: .ring(SealHarness.siteA))
        let first = try harness.bytes(of: .ring(SealHarness.siteA))
        try await store.write(contents, to: .ring(SealHarness.siteA))
        let second = try harness.bytes(of: .ring(SealHarness.siteA))
        #expect(first.prefix(22) == second.prefix(22))
        #expect(first[22..<34] != second[22..<34])
        #expect(first[34...] != second[34...])
    }

    @Test func aFileCostsFiftyBytesBeyondItsContents() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        let ring = [UInt8](repeating: 7, count: 16 * 1024)
        try await store.write(ring, to: .ring(SealHarness.siteA))
        try await store.keepFile(name: "chargers", site: SealHarness.siteB, contents: contents)
        let files = await store.files()
        #expect(files.map(\.name.fileName) == ["chargers-\(SealHarness.siteB)", "ring-\(SealHarness.siteA)"])
        #expect(files.map(\.bytes) == [contents.count + 50, ring.count + 50])
    }

    @Test func aSealedFileIsReadableByItsOwnerOnly() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        try await harness.store().write(contents, to: .home(SealHarness.siteA))
        let attributes = try FileManager.default.attributesOfItem(
            atPath: harness.url("home-\(SealHarness.siteA)").path(percentEncoded: false)
        )
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }
}
