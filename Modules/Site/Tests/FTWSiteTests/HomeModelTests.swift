import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSealInterface
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Testing

/// The home's identity from `hello_ok`, sealed, and known at launch before connecting.
@Suite struct HomeModelTests {
    @Test func aStreamsHelloIsTheHomeAndIsSealed() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let home = world.home()
        await world.with([home]) { _ in
            #expect(home.identity == nil)
            await world.streamReturns(timeZone: "America/New_York")
        }
        #expect(home.isLive)
        #expect(home.identity?.boxID == "demo")
        #expect(home.timeZone == TimeZone(identifier: "America/New_York"))
        #expect(home.identity?.supports(.priceSpot) == true)
        #expect(home.identity?.supports(.derBattery) == false)
        #expect(home.identity?.role == "owner")
        #expect(home.identity?.holds(.liveRead) == true)
        #expect(world.fileBytes(.home(SiteWorld.site)) != nil)
    }

    @Test func atLaunchTheSealedHomeGivesTheTimeZoneBeforeConnecting() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        await world.with([world.home()]) { _ in await world.streamReturns(timeZone: "Asia/Tokyo") }
        let relaunched = SiteWorld(folder: world.folder)
        let home = relaunched.home()
        await home.restore()
        #expect(home.timeZone == TimeZone(identifier: "Asia/Tokyo"))
        #expect(!home.isLive, "the sealed copy is not the box's word this run")
    }

    @Test func aChangedHelloIsSealedAndAnUnchangedOneWritesNothing() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let home = world.home()
        await world.with([home]) { simulation in
            await world.streamReturns()
            let first = world.fileBytes(.home(SiteWorld.site))
            await world.background(for: .seconds(60))
            await world.streamReturns()
            #expect(world.fileBytes(.home(SiteWorld.site)) == first, "the same hello is not written again")
            await world.background(for: .seconds(60))
            await world.streamReturns(timeZone: "Europe/London")
            await simulation.settle()
            #expect(world.fileBytes(.home(SiteWorld.site)) != first)
        }
        let relaunched = SiteWorld(folder: world.folder).home()
        await relaunched.restore()
        #expect(relaunched.identity?.timeZoneID == "Europe/London")
    }

    @Test func aTimeZoneThisSystemDoesNotKnowIsATypedError() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let home = world.home()
        await world.with([home]) { _ in await world.streamReturns(timeZone: "Mars/Olympus_Mons") }
        #expect(home.timeZone == nil)
        let error = #expect(throws: SiteError.self) { try home.identity?.zone() }
        #expect(error?.code == .unknownTimeZone)
    }
}
