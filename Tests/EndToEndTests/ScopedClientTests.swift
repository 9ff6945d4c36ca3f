import FTWBus
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWFixtures
import Foundation
import Testing

/// The scoped lifetime over real sockets on 127.0.0.1: whichever way the body ends, the client persists and closes
/// its session with a close frame (1000) before the call returns, as the demo relay's log shows.
@Suite struct ScopedClientTests {
    struct BodyFailed: Error {}

    /// The relay's log lines as they come.
    final class RelayLog: LogSink {
        let lines = EventBus<String>()

        func log(_ entry: LogEntry) {
            lines.publish(entry.message)
        }
    }

    /// A demo box with its relay on an ephemeral port and a phone paired with it, around `body`.
    static func withPairedPhone(
        _ body: @escaping @Sendable (PairedSite, DataFolder, RelayLog) async throws -> Void
    ) async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let box = SimulatedBox(
            configuration: WallClockRelay.configuration,
            clock: ContinuousClock(),
            wallClock: SystemWallClock()
        )
        let log = RelayLog()
        let relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock(), log: log)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            defer { group.cancelAll() }
            try await TimeLimit.within(.seconds(60), on: ContinuousClock(), "the scoped client's run") {
                let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
                let address = RelayAddress(secure: false, host: "127.0.0.1", port: relay.port)
                let site = try await Pairing.onWallClock(store: folder.unlockedStore()).pair(link, relay: address)
                try await body(site, folder, log)
            }
            await relay.close()
        }
    }

    /// How the client's stream left the relay's room, as the relay logs it (the pairing's session was stream 1).
    static func nextDeparture(_ lines: BusStream<String>) async throws -> String {
        try await TimeLimit.within(.seconds(10), on: ContinuousClock(), "the relay's line for the client's stream") {
            for await line in lines where line.contains("left the room") && !line.hasPrefix("stream 1 ") {
                return line
            }
            return "the relay's log ended"
        }
    }

    /// Whether the close sealed the live readings: a next launch on the folder draws them.
    static func sealedTheReadings(_ site: PairedSite, _ folder: DataFolder) async throws -> Bool {
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
