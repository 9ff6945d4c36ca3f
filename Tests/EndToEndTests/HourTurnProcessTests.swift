import FTWClient
import FTWClockSeam
import FTWFixtures
import FTWNoise
import FTWSession
import FTWSessionInterface
import Foundation
import Testing

/// The hour's turn on the wall clock, against `ftw-demobox` in its own process with its relay's epochs shortened to
/// 30 s, every old room due at the epoch's start (`--epoch-ms`, `--rotation-spread 0ms`) and the relay's 15 s beat
/// falling 14 s after it (`--relay-beat-phase 14s`, the latest a beat can fall), and a phone handed the same schedule:
/// a return 200 ms into an epoch joins the new room once, knows when its box comes, shows what it had meanwhile, does
/// not redial while the relay has yet to move the box, and goes live as soon as the box is in the room.
@Suite struct HourTurnProcessTests {
    /// The demo relay's epochs and spread, and the phone's: the relay's beat, the box's 2.5 s rejoin and a return's
    /// queue of reads fit in the epoch.
    private static let schedule = RelaySchedule(epochMs: 30_000, rotationSpreadMs: 0)
    /// How long after the offset the relay's beat falls: a multiple of 15 s plus 14 s, and every epoch starts on a
    /// multiple of 15 s.
    private static let beatAfterOffsetMs: Int64 = 14_000

    @Test(
        .enabled(if: DemoBoxChild.executable != nil, "ftw-demobox is not built beside the test bundle (swift build)")
    )
    func aReturnInTheTurnJoinsOnceAndGoesLiveWhenTheBoxComes() async throws {
        let schedule = try #require(Self.schedule)
        let executable = try #require(DemoBoxChild.executable)
        let child = try DemoBoxChild(
            executable: executable,
            state: nil,
            options: [
                "--epoch-ms", "30000", "--rotation-spread", "0ms", "--relay-beat", "15s", "--relay-beat-phase", "14s",
            ],
            lifetime: .seconds(120)
        )
        var lines = child.lines.makeAsyncIterator()
        let link = try EnrolmentURL(
            parsing: try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("https://app.ftw.energy/p#v2.") })
        )
        let relay = try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("relay: ws://127.0.0.1:") })
        let port = try #require(relay.split(separator: ":").last.flatMap { Int($0) })
        let note = await DemoBoxChild.line(&lines) { $0.hasPrefix("relay epochs:") }
        #expect(note == "relay epochs: 30000 ms, old rooms moved within 0 ms of each epoch's start")

        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let wallClock = SystemWallClock()
        let dialer = { @Sendable in
            RelayDialer(
                host: "127.0.0.1",
                port: port,
                rendezvousSecret: link.rendezvousSecret,
                clock: ContinuousClock(),
                wallClock: wallClock,
                tls: nil,
                schedule: schedule
            )
        }
        let address = RelayAddress(secure: false, host: "127.0.0.1", port: port)
        let paired = try await TimeLimit.within(.seconds(40), on: ContinuousClock(), "the pairing") {
            try await Pairing(store: folder.unlockedStore(), clock: ContinuousClock(), wallClock: wallClock)
                .pair(link, relay: address, dialer: dialer())
        }
        let client = HeadlessClient(
            paired: paired,
            store: folder.unlockedStore(),
            dialer: dialer(),
            clock: ContinuousClock(),
            wallClock: wallClock,
            random: SystemRandomSource(),
            policy: .ageKeyed,
            log: DiscardingLogSink()
        )
        let seen = try await client.run { client in
            try await TimeLimit.within(.seconds(80), on: ContinuousClock(), "the return in the turn") {
                try await Self.returnInTheTurn(client, secret: link.rendezvousSecret)
            }
        }
        #expect(seen.dials == 1, "one join, however long the room stays empty")
        #expect(seen.awaited == seen.expected, "the phone knows when its box comes")
        let liveMs = try #require(seen.liveMs)
        let boxJoinsAtMs = seen.expected.movesAtMs + Self.beatAfterOffsetMs + 2_500
        #expect(liveMs >= boxJoinsAtMs, "the relay moves the box on its beat; the demo box rejoins 2.5 s later")
        #expect(liveMs <= boxJoinsAtMs + 2_000, "live a round trip after the box came")
        #expect(seen.shownWhileWaiting, "the home screen kept what it had while the room was empty")
        #expect(await child.stop() == 0)
    }

    /// What a return in the turn went through.
    private struct Seen: Sendable {
        var expected: BoxArrival
        var awaited: BoxArrival?
        var dials = 0
        var liveMs: Int64?
        var shownWhileWaiting = false
    }

    /// Live once, to the background, back 200 ms into the next epoch, before the relay's beat moves the box, until
    /// live again.
    private static func returnInTheTurn(_ client: HeadlessClient, secret: [UInt8]) async throws -> Seen {
        try await client.setPhase(.active)
        client.show(.now)
        for await screen in client.observeHomeScreen() where screen.isLive { break }
        try await client.setPhase(.background)
        let schedule = try #require(Self.schedule)
        let epoch = schedule.epoch(nowMs: client.nowMs) + 1
        let expected = try #require(RelayRendezvous.boxArrival(secret: secret, epoch: epoch, schedule: schedule))
        let startMs = try #require(schedule.startMs(ofEpoch: epoch))
        try await ContinuousClock().sleep(for: .milliseconds(startMs + 200 - client.nowMs))
        let events = client.sessionEvents.subscribe()
        try await client.setPhase(.active)
        var seen = Seen(expected: expected)
        var screens = client.observeHomeScreen().makeAsyncIterator()
        for await event in events {
            switch event {
            case .connection(.dialing): seen.dials += 1
            case .connection(.awaitingBox(let arrival)):
                seen.awaited = arrival
                seen.shownWhileWaiting = await screens.next()?.readings.isEmpty == false
            case .connection(.streaming):
                seen.liveMs = client.nowMs
                return seen
            default: continue
            }
        }
        return seen
    }
}
