import FTWBoxProtocol
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWFixtures
import FTWHeadlessTooling
import FTWSealInterface
import Foundation
import Testing

/// The paired path over real sockets on 127.0.0.1 when the first connection is interrupted or the link crawls:
/// what the phone does next, and what it says.
extension LoopbackPairingTests {
    /// The issue's phone stranded for good, on the wall clock: 300 ms each way, the pairing killed once the box has
    /// taken message 1 with the code and before message 2 arrives; `run --real-time` then offered the spent code.
    @Test func aPairingKilledAfterTheBoxTookTheCodeRunsOnTheWallClockAsAKnownDevice() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let scenario = try ScenarioParser.parse(
            """
            date 2026-12-02
            timezone Europe/Stockholm
            at 10:00:00 launch; inactive; active; view now
            wait 5s; background
            """
        )
        _ = try await Self.withBox(DemoBoxState(identity: .generate(), devices: [])) { box, relay in
            await box.setRelayLatency(.milliseconds(300))
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let enrolments = await box.enrolmentUpdates()
            let pairing = Task { try await Self.pairing(folder).pair(link, relay: Self.relay(relay)) }
            try await TimeLimit.within(.seconds(20), on: ContinuousClock(), "the box taking the code") {
                for await devices in enrolments where !devices.isEmpty { break }
            }
            pairing.cancel()
            _ = await pairing.result
            let pending = try #require(await PairedSite.read(site: link.site, from: folder.unlockedStore()))
            #expect(pending.isPending, "killed before the box's answer arrived")

            let runner = ScenarioRunner(scenario: scenario, name: "relaunch")
            let (report, _) = try await runner.runOnWallClock(site: link.site, folder: folder)
            let stay = try #require(report.stays.first)
            #expect(stay.liveMs != nil, "\(stay.notLiveBecause ?? "")")
            #expect(await PairedSite.read(site: link.site, from: folder.unlockedStore())?.isPending == false)
        }
    }

    /// The issue's link at 1 byte a second after the upgrade (here 10): "it no longer knows this phone", of a box a
    /// greeting then reached in 0.04 s.
    @Test func aLinkThatTricklesAfterTheUpgradeIsNoAnswerInTimeAndAGreetingGoesThroughOnceItIsFast() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try await Self.withPhoneBehindATrickle(folder) { site, throttle, slow in
            let patient = Pairing(
                store: folder.unlockedStore(),
                clock: ContinuousClock(),
                wallClock: SystemWallClock(),
                // Four times the handshake's 3 s, so the first try's verdict is in before the pairing gives up
                // even when the test run's load slows the dial and the upgrade (6 s left too little of it).
                deadline: .seconds(12)
            )
            let error = try await #require(throws: EnrolmentError.self) { try await patient.greet(site, relay: slow) }
            #expect(error.code == .noAnswer)
            #expect(error.message.contains("no answer in time"), "\(error.message)")
            #expect(!error.message.contains("no longer knows"))
            throttle.throttled = false
            #expect(try await patient.greet(site, relay: slow).role == .owner)
        }
    }

    /// A greeting its caller cancels ends as cancelled, not as a box that went quiet: a time limit around it (or a
    /// person leaving the screen) must not read as "the session ended before the box answered".
    @Test func aGreetingItsCallerCancelsEndsCancelledAndBlamesNoBox() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try await Self.withPhoneBehindATrickle(folder) { site, throttle, slow in
            let greeting = Task { try await Self.pairing(folder).greet(site, relay: slow) }
            await throttle.connected.value
            greeting.cancel()
            await #expect(throws: CancellationError.self) { try await greeting.value }
        }
    }

    /// A phone paired with a fresh demo box, then given the box's relay behind a link that trickles after the
    /// upgrade (one byte every 100 ms, until a test lifts the throttle).
    private static func withPhoneBehindATrickle(
        _ folder: DataFolder,
        _ body: @escaping @Sendable (PairedSite, ThrottledLink, RelayAddress) async throws -> Void
    ) async throws {
        _ = try await withBox(DemoBoxState(identity: .generate(), devices: [])) { box, relay in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let site = try await pairing(folder).pair(link, relay: Self.relay(relay))
            let throttle = try ThrottledLink(upstream: relay.port, interval: .milliseconds(100))
            defer { throttle.stop() }
            try await body(site, throttle, RelayAddress(secure: false, host: "127.0.0.1", port: throttle.port))
        }
    }
}
