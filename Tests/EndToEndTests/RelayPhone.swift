import FTWBus
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWFixtures
import Foundation

/// A demo box with its relay on an ephemeral port of 127.0.0.1 and a phone paired with it through that relay, for
/// tests of the client's whole lifetime over real sockets; the relay's log says how each stream left its room.
enum RelayPhone {
    /// The relay's log lines as they come.
    final class RelayLog: LogSink {
        let lines = EventBus<String>()

        func log(_ entry: LogEntry) {
            lines.publish(entry.message)
        }
    }

    /// Runs `body` with the box and its relay running and a phone paired with it (its folder removed afterwards).
    static func run(
        _ body: @escaping @Sendable (PairedSite, DataFolder, RelayLog, DemoRelayServer) async throws -> Void
    ) async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let log = RelayLog()
        _ = try await LoopbackPairingTests.withBox(DemoBoxState(identity: .generate(), devices: []), log: log) {
            box,
            relay in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let site = try await LoopbackPairingTests.pairing(folder).pair(
                link,
                relay: LoopbackPairingTests.relay(relay)
            )
            try await body(site, folder, log, relay)
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

    /// Brings `client` to the front on the home screen and returns once it is live.
    static func untilLive(_ client: HeadlessClient) async throws {
        try await client.setPhase(.active)
        client.show(.now)
        for await screen in client.observeHomeScreen() where screen.isLive { return }
    }
}
