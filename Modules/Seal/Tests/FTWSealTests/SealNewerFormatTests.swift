import FTWBus
import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// A file a newer build wrote (issue 32): kept exactly as it is and said, naming the file and its version; never
/// dropped and never written over, so going back to that build finds it.
@Suite struct SealNewerFormatTests {
    private static let name = SealedFileName.home(SealHarness.siteA)

    /// The sealed file's own version byte (offset 4) from the future.
    @Test func aSealedFileOfANewerVersionIsKeptNamedAndNeverWrittenOver() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.write(Array("today".utf8), to: Self.name)
        var future = try harness.bytes(of: Self.name)
        future[4] = 2
        try harness.put(future, as: Self.name.fileName)
        #expect(await store.read(Self.name) == nil)
        await #expect(throws: SealError.self) { try await store.write(Array("older".utf8), to: Self.name) }
        let relaunched = harness.store()
        #expect(await relaunched.read(Self.name) == nil)
        #expect(try harness.bytes(of: Self.name) == future, "kept byte for byte")
        let told = await harness.recordedEvents().compactMap { event -> String? in
            if case .written = event { return nil }
            return event.description
        }
        let kept =
            "could not read home-0123456789abcdef, left on disk: home-0123456789abcdef was written by a newer build,"
            + " in format 2 (this build reads format 1 and older); it is kept for that build, and its model starts"
            + " empty"
        #expect(told.first == kept)
        #expect(
            told.dropFirst().first
                == "could not write home-0123456789abcdef, nothing on disk changed: home-0123456789abcdef was written"
                + " by a newer build and is kept for it"
        )
        #expect(told.count == 3)
    }

    /// The models' layout version (after "FTWM") from the future: the store keeps the file for the build that wrote
    /// it, where an older layout is dropped and asked again.
    @Test func aModelFileOfANewerLayoutIsKeptAndNamed() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        let future = SealedContents.magic + [SealedContents.version + 1, 42]
        try await store.write(future, to: Self.name)
        let sealed = try harness.bytes(of: Self.name)
        #expect(await store.readContents(Self.name, as: Flag.self) == nil)
        await #expect(throws: SealError.self) { try await store.writeContents(Flag(on: true), to: Self.name) }
        #expect(try harness.bytes(of: Self.name) == sealed, "kept byte for byte")
        let failures = await harness.recordedEvents().compactMap { event -> SealError? in
            if case .readFailed(_, let error) = event { error } else { nil }
        }
        #expect(failures.map(\.code) == [.newerFormat])
        #expect(
            failures.first?.message.contains("home-0123456789abcdef was written by a newer build, in format 2") == true
        )
    }

    /// A file of the version this build writes still reads: the rule above is about newer versions only.
    @Test func theCurrentLayoutStillReads() async throws {
        let harness = SealHarness()
        defer { harness.remove() }
        let store = harness.store()
        try await store.writeContents(Flag(on: true), to: Self.name)
        #expect(await store.readContents(Self.name, as: Flag.self) == Flag(on: true))
    }

    private struct Flag: SealedCodable, Equatable {
        var on: Bool
        init(on: Bool) { self.on = on }
        init(from reader: inout BinaryReader) throws(SealedContentError) { on = try reader.bool() }
        func encode(into writer: inout BinaryWriter) { writer.bool(on) }
    }
}
