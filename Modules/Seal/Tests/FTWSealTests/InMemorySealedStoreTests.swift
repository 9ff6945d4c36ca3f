import FTWBus
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import Testing

/// The in-memory store models use in their tests drops, refuses and reports as the file store does.
@Suite struct InMemorySealedStoreTests {
    private static let site = SealHarness.siteA

    private func recorded(_ bus: EventBus<SealEvent>, _ events: BusStream<SealEvent>) async -> [SealEvent] {
        bus.finish()
        return await events.reduce(into: []) { if case .written = $1 {} else { $0.append($1) } }
    }

    @Test func aChangedByteDropsTheFile() async throws {
        let bus = EventBus<SealEvent>()
        let events = bus.subscribe()
        let store = InMemorySealedStore(keys: InMemoryKeyProvider(), events: bus)
        try await store.write([1, 2, 3], to: .ring(Self.site))
        var bytes = try #require(store.disk.bytes(of: .ring(Self.site)))
        bytes[40] ^= 1
        store.disk.put(bytes, as: .ring(Self.site))
        #expect(await store.read(.ring(Self.site)) == nil)
        #expect(store.disk.names.isEmpty)
        #expect(await recorded(bus, events) == [.dropped(file: "ring-\(Self.site)", reason: .authenticationFailed)])
    }

    @Test func aRefusedReadLeavesTheFileAndARefusedWriteTheOldOne() async throws {
        let bus = EventBus<SealEvent>()
        let events = bus.subscribe()
        let disk = MemoryDisk()
        let keys = InMemoryKeyProvider()
        let store = InMemorySealedStore(disk: disk, keys: keys, events: bus)
        try await store.write([1], to: .home(Self.site))
        let busy = SealError(.io, "open home-\(Self.site): Too many open files")
        disk.failReads(of: .home(Self.site), with: busy)
        #expect(await store.read(.home(Self.site)) == nil)
        disk.failReads(of: .home(Self.site), with: nil)
        let full = SealError(.io, "write: No space left on device")
        disk.failWrites(with: full)
        #expect(await codeThrown { try await store.write([2], to: .home(Self.site)) } == .io)
        let relaunched = InMemorySealedStore(disk: disk, keys: keys, events: bus)
        #expect(await relaunched.read(.home(Self.site)) == [1])
        #expect(
            await recorded(bus, events) == [
                .readFailed(file: "home-\(Self.site)", error: busy),
                .writeFailed(file: "home-\(Self.site)", error: full),
            ]
        )
    }

    @Test func aFilePastItsLimitIsDroppedAndAWritePastItRefused() async throws {
        let store = InMemorySealedStore(keys: InMemoryKeyProvider(), events: EventBus())
        let name = try SealedFileName(kind: .kept, site: Self.site, model: "pairing")
        #expect(
            await codeThrown {
                try await store.keepFile(
                    name: "pairing",
                    site: Self.site,
                    contents: [UInt8](repeating: 0, count: name.sizeLimit)
                )
            } == .tooLarge
        )
        store.disk.put([UInt8](repeating: 0, count: name.sizeLimit + 1), as: name)
        #expect(await store.keptFile(name: "pairing", site: Self.site) == nil)
        #expect(store.disk.names.isEmpty)
    }
}
