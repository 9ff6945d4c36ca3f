import ClockSeam
import FTWClient
import Fixtures
import Foundation
import Noise
import Session
import SessionInterface
import Testing

/// The hour's turn on the wall clock, against `ftw-demobox` in its own process with its relay's epochs shortened to
/// 10 s and their turn spread over 6 s (`--epoch-ms`, `--rotation-spread`), and a phone handed the same schedule: a
/// return in the turn joins the new room once, knows when its box comes, shows what it had meanwhile, and goes live
/// as soon as the box is in the room.
@Suite struct HourTurnProcessTests {
    /// The demo relay's epochs and spread, and the phone's: the box's 2.5 s rejoin and a return's queue of reads fit
    /// in what is left of the epoch.
    private static let schedule = RelaySchedule(epochMs: 10_000, rotationSpreadMs: 6_000)

    /// The first epoch after `nowMs` whose turn comes at least 2 s in (the old handle's offset), so a return 200 ms
    /// into it meets an empty room for long enough to tell a wait from a redial.
    private static func nextTurnWithAWait(
        secret: [UInt8],
        schedule: RelaySchedule,
        after nowMs: Int64
    ) -> BoxArrival? {
        var epoch = schedule.epoch(nowMs: nowMs) + 1
        while true {
            guard let arrival = RelayRendezvous.boxArrival(secret: secret, epoch: epoch, schedule: schedule) else {
                return nil
            }
            if arrival.movesAtMs - (schedule.startMs(ofEpoch: epoch) ?? 0) >= 2_000 { return arrival }
            epoch += 1
        }
    }

    @Test(
        .enabled(if: DemoBoxChild.executable != nil, "ftw-demobox is not built beside the test bundle (swift build)")
    )
    func aReturnInTheTurnJoinsOnceAndGoesLiveWhenTheBoxComes() async throws {
        let schedule = try #require(Self.schedule)
        let executable = try #require(DemoBoxChild.executable)
        let child = try DemoBoxChild(
            executable: executable,
            state: nil,
            options: ["--epoch-ms", "10000", "--rotation-spread", "6s"],
            lifetime: .seconds(120)
        )
        var lines = child.lines.makeAsyncIterator()
        let link = try EnrolmentURL(
            parsing: try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("https://app.ftw.energy/p#v2.") })
        )
        let relay = try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("relay: ws://127.0.0.1:") })
        let port = try #require(relay.split(separator: ":").last.flatMap { Int($0) })
        let note = await DemoBoxChild.line(&lines) { $0.hasPrefix("relay epochs:") }
        #expect(note == "relay epochs: 10000 ms, old rooms moved within 6000 ms of each epoch's start")

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
            try await Pairing(store: folder.store(), clock: ContinuousClock(), wallClock: wallClock)
                .pair(link, relay: address, dialer: dialer())
        }
        let client = HeadlessClient(
            paired: paired,
            store: folder.store(),
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
        #expect(liveMs >= seen.expected.movesAtMs + 2_500, "the demo box rejoins 2.5 s after the relay moved it")
        #expect(liveMs <= seen.expected.movesAtMs + 2_500 + 2_000, "live a round trip after the box came")
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

    /// Live once, to the background, back 200 ms into an epoch whose turn comes later, until live again.
    private static func returnInTheTurn(_ client: HeadlessClient, secret: [UInt8]) async throws -> Seen {
        try await client.setPhase(.active)
        client.show(.now)
        for await screen in client.observeHomeScreen() where screen.isLive { break }
        try await client.setPhase(.background)
        let schedule = try #require(Self.schedule)
        let expected = try #require(Self.nextTurnWithAWait(secret: secret, schedule: schedule, after: client.nowMs))
        let startMs = try #require(schedule.startMs(ofEpoch: schedule.epoch(nowMs: expected.movesAtMs)))
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
