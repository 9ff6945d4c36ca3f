import FTWBus
import FTWClient
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import Foundation
import Testing

/// The pairing record's file: written in the model files' binary layout, read back whole, and an older build's JSON
/// record still read (and left as it is) so an update never un-pairs a phone.
@Suite struct PairedSiteFileTests {
    private static let site = SiteID(rawValue: "0123456789abcdef")!

    private static let record = PairedSite(
        site: site,
        boxStaticPublicKey: [UInt8](repeating: 7, count: 32),
        rendezvousSecret: [UInt8](repeating: 8, count: 32),
        lanHint: "192.168.1.20",
        devicePrivateKey: [UInt8](repeating: 9, count: 32),
        pairingCode: [],
        role: "owner",
        scopes: ["read", "control"],
        relay: "wss://relay.ftw.energy:443",
        caFile: "/etc/ftw/relay-ca.pem"
    )

    private static func store() -> InMemorySealedStore {
        InMemorySealedStore(keys: InMemoryKeyProvider(key: [UInt8](repeating: 1, count: 32)), events: EventBus())
    }

    @Test func aRecordIsWrittenInTheBinaryLayoutAndReadsBackWhole() async throws {
        let store = Self.store()
        try await Self.record.write(to: store)
        let plain = try #require(await store.keptFile(name: PairedSite.fileModel, site: Self.site))
        #expect(Array(plain.prefix(4)) == SealedContents.magic)
        #expect(await PairedSite.read(site: Self.site, from: store) == Self.record)
        var pending = Self.record
        pending.role = nil
        pending.relay = nil
        pending.caFile = nil
        pending.pairingCode = Array("123456".utf8)
        try await pending.write(to: store)
        let read = await PairedSite.read(site: Self.site, from: store)
        #expect(read?.codeMayBeSpent == true, "a pending record read back may have offered its code before")
        pending.codeMayBeSpent = true
        #expect(read == pending)
    }

    @Test func anOlderBuildsJSONRecordStillReadsAndIsLeftAsItIs() async throws {
        let store = Self.store()
        let json = Array(try JSONEncoder().encode(Self.record))
        try await store.keepFile(name: PairedSite.fileModel, site: Self.site, contents: json)
        #expect(await PairedSite.read(site: Self.site, from: store) == Self.record)
        #expect(await store.keptFile(name: PairedSite.fileModel, site: Self.site) == json, "a read writes nothing")
    }

    @Test func aRecordThatDoesNotDecodeReadsAsNoneAndStaysOnDisk() async throws {
        let store = Self.store()
        var cut = SealedContents.encode(Self.record)
        cut.removeLast(5)
        try await store.keepFile(name: PairedSite.fileModel, site: Self.site, contents: cut)
        #expect(await PairedSite.read(site: Self.site, from: store) == nil)
        #expect(
            await store.keptFile(name: PairedSite.fileModel, site: Self.site) == cut,
            "the device key is never thrown away"
        )
    }
}
