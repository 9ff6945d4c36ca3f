import FTWBoxProtocol
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Testing

/// The site's models in their sealed files: every field comes back as the box sent it, and an older build's JSON
/// file is dropped, never drawn, and replaced by the box's next word.
@Suite struct SiteSealedFileTests {
    private func roundTrip<Value: SealedCodable & Equatable>(_ value: Value) throws -> Value {
        try SealedContents.decode(SealedContents.encode(value), as: Value.self, file: "site")
    }

    @Test func theChargersPrefsAndStatusReadBackAsWritten() throws {
        let chargers = ChargerList(chargers: [
            Charger(id: "garage", name: "Easee ⚡", powerW: 7_400, connected: true, charging: true),
            Charger(id: "street", name: "street", powerW: nil, connected: false, charging: false),
        ])
        #expect(try roundTrip(chargers) == chargers)
        let prefs = PlannerPrefs(mode: "cheapest", reserveSocPct: 20.5, json: SiteWorld.prefsBody)
        #expect(try roundTrip(prefs) == prefs)
        let bare = PlannerPrefs(mode: nil, reserveSocPct: nil, json: "{}")
        #expect(try roundTrip(bare) == bare)
        let status = SiteStatus(version: "1.42.0", mode: nil, json: SiteWorld.statusBody)
        #expect(try roundTrip(status) == status)
    }

    @Test func theHomeAndTheSnapshotReadBackAsWritten() throws {
        let home = HomeIdentity(hello: SampleHello.make())
        #expect(try roundTrip(home) == home)
        var snapshot = SiteSnapshot(snap: SnapshotModelTests.snap(), arrivalMs: SiteWorld.tenOhOne)
        snapshot.dispatchBlockedBy = ["meter"]
        #expect(try roundTrip(snapshot) == snapshot)
    }

    @Test func everyPrefixOfASnapshotIsRefused() {
        let bytes = SealedContents.encode(SiteSnapshot(snap: SnapshotModelTests.snap(), arrivalMs: SiteWorld.tenOhOne))
        for length in 0..<bytes.count {
            #expect(throws: SealedContentError.self, "a snapshot cut to \(length) bytes") {
                try SealedContents.decode(Array(bytes.prefix(length)), as: SiteSnapshot.self, file: "snapshot")
            }
        }
    }

    @Test func anOlderBuildsHomeFileIsDroppedAndTheNextHelloSealsANewOne() async throws {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let json =
            #"{"boxID":"demo","build":"old","timeZoneID":"Asia/Tokyo","proto":1,"mode":"full","caps":[],"#
            + #""modes":[],"role":"owner","scopes":[]}"#
        try await world.store.write(Array(json.utf8), to: .home(SiteWorld.site))
        let home = world.home()
        await home.restore()
        #expect(home.identity == nil, "never misread")
        #expect(world.fileBytes(.home(SiteWorld.site)) == nil, "dropped")
        await world.with([home]) { _ in await world.streamReturns(timeZone: "Europe/London") }
        let relaunched = SiteWorld(folder: world.folder).home()
        await relaunched.restore()
        #expect(relaunched.identity?.timeZoneID == "Europe/London")
    }

    @Test func anOlderBuildsSnapshotFileIsDroppedAndNothingIsDrawn() async throws {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let json =
            #"{"savedAtMs":1796205660000,"snapshot":{"uptimeMs":1,"controlRev":1,"dict":[],"fields":[],"#
            + #""sources":{},"dispatchBlockedBy":[],"takenAtMs":1796205660000}}"#
        try await world.store.write(Array(json.utf8), to: .snapshot(SiteWorld.site))
        let snapshot = world.snapshot()
        await snapshot.restore()
        #expect(await snapshot.shown == nil)
        #expect(world.fileBytes(.snapshot(SiteWorld.site)) == nil)
    }
}
