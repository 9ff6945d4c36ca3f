import Bus
import ClockSeam
import DemoBox
import FTWClient
import Fixtures
import Foundation
import Testing

/// The scoped lifetime over real sockets on 127.0.0.1: whichever way the body ends, the client persists and closes
/// its session with a close frame (1000) before the call returns, as the demo relay's log shows.
@Suite struct ScopedClientTests {
    struct BodyFailed: Error {}

    /// Whether the close sealed the live readings: a next launch on the folder draws them.
    private static func sealedTheReadings(_ site: PairedSite, _ folder: DataFolder) async throws -> Bool {
        let next = try HeadlessClient.onWallClock(paired: site, store: folder.unlockedStore())
        return await next.launch().models["snapshot"] == true
    }

    @Test func aBodyThatThrowsClosesTheSessionWith1000() async throws {
        try await RelayPhone.run { site, folder, log, _ in
            let departures = log.lines.subscribe()
            await #expect(throws: BodyFailed.self) {
                try await HeadlessClient.run(paired: site, store: folder.unlockedStore()) { client in
                    try await RelayPhone.untilLive(client)
                    throw BodyFailed()
                }
            }
            let departure = try await RelayPhone.nextDeparture(departures)
            #expect(departure.hasSuffix("close 1000"), "\(departure)")
            #expect(try await Self.sealedTheReadings(site, folder))
        }
    }

    @Test func aCancelledScopeClosesTheSessionWith1000AndSealsWhatItHeld() async throws {
        try await RelayPhone.run { site, folder, log, _ in
            let departures = log.lines.subscribe()
            let live = OneShot<Void>()
            let scene = Task {
                try await HeadlessClient.run(paired: site, store: folder.unlockedStore()) { client in
                    try await RelayPhone.untilLive(client)
                    live.fulfil(())
                    try await Task.sleep(for: .seconds(3600))
                }
            }
            await live.value
            scene.cancel()
            await #expect(throws: CancellationError.self) { try await scene.value }
            let departure = try await RelayPhone.nextDeparture(departures)
            #expect(departure.hasSuffix("close 1000"), "\(departure)")
            #expect(try await Self.sealedTheReadings(site, folder))
        }
    }

    @Test func aBodyThatReturnsGivesItsValueAfterTheClose() async throws {
        try await RelayPhone.run { site, folder, log, _ in
            let departures = log.lines.subscribe()
            let readings = try await HeadlessClient.run(paired: site, store: folder.unlockedStore()) { client in
                try await RelayPhone.untilLive(client)
                return await HomeScreen.read(from: client).readings.count
            }
            #expect(readings > 0)
            let departure = try await RelayPhone.nextDeparture(departures)
            #expect(departure.hasSuffix("close 1000"), "\(departure)")
            #expect(try await Self.sealedTheReadings(site, folder))
        }
    }
}
