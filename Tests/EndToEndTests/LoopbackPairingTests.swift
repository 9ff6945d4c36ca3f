import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWFixtures
import FTWHeadlessTooling
import FTWNoise
import FTWSealInterface
import FTWSession
import FTWSessionInterface
import Foundation
import Testing

/// The paired path over real sockets on 127.0.0.1: `Pairing` → `RelayDialer` → WebSocket → `DemoRelayServer` →
/// the demo box. Every wait is capped by a deadline; nothing is timed.
@Suite struct LoopbackPairingTests {
    /// A phone clock that reads `shiftMs` off the real one.
    struct ShiftedWallClock: WallClock {
        let shiftMs: Int64
        var nowMs: Int64 { SystemWallClock().nowMs + shiftMs }
    }

    /// A demo box with `state`'s keys and phones, and its relay on an ephemeral port (logging to `log`), running
    /// around `body`; the box's state as it is when `body` returns is handed back, as `ftw-demobox --state` keeps it.
    static func withBox(
        _ state: DemoBoxState,
        tls: DemoBoxTLS? = nil,
        log: any LogSink = DiscardingLogSink(),
        _ body: @escaping @Sendable (SimulatedBox, DemoRelayServer) async throws -> Void
    ) async throws -> DemoBoxState {
        var configuration = WallClockRelay.configuration
        configuration.identity = state.identity
        configuration.enrolledDevices = state.devices
        let box = SimulatedBox(configuration: configuration, clock: ContinuousClock(), wallClock: SystemWallClock())
        let relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock(), tls: tls, log: log)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            defer { group.cancelAll() }
            try await TimeLimit.within(.seconds(60), on: ContinuousClock(), "the box's run") {
                try await body(box, relay)
            }
            await relay.close()
        }
        return DemoBoxState(identity: state.identity, devices: await box.enrolledDevices)
    }

    static func pairing(_ folder: DataFolder, wallClock: any WallClock = SystemWallClock()) -> Pairing {
        Pairing(store: folder.unlockedStore(), clock: ContinuousClock(), wallClock: wallClock)
    }

    static func relay(_ server: DemoRelayServer) -> RelayAddress {
        RelayAddress(secure: false, host: "127.0.0.1", port: server.port)
    }

    @Test func aKnownDeviceReconnectsWithAnEmptyPayloadAfterBothSidesRestart() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let kept = try await Self.withBox(DemoBoxState(identity: .generate(), devices: [])) { box, relay in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: "127.0.0.1:\(relay.port)"))
            _ = try await Self.pairing(folder).pair(link, relay: Self.relay(relay))
        }
        #expect(kept.devices.count == 1)
        // A new process on the same data folder; a new box process with the kept state and no code minted, so
        // only a handshake with an empty payload from a known key can be admitted.
        let sites = await PairedSite.all(in: folder.unlockedStore())
        let site = try #require(sites.first)
        #expect(sites.count == 1)
        #expect(site.pairingCode.isEmpty)
        let after = try await Self.withBox(kept) { box, relay in
            let hello = try await Self.pairing(folder).greet(site, relay: Self.relay(relay))
            #expect(hello.role == .owner)
            let reread = await PairedSite.read(site: site.site, from: folder.unlockedStore())
            #expect(reread?.relay == Self.relay(relay).description)
        }
        #expect(after == kept)
    }

    @Test func aBoxThatForgotThePhoneRefusesItsGreeting() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let identity = DemoBoxIdentity.generate()
        _ = try await Self.withBox(DemoBoxState(identity: identity, devices: [])) { box, relay in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            _ = try await Self.pairing(folder).pair(link, relay: Self.relay(relay))
        }
        let site = try #require(await PairedSite.all(in: folder.unlockedStore()).first)
        _ = try await Self.withBox(DemoBoxState(identity: identity, devices: [])) { _, relay in
            // The verdict takes two silences: the return's 3 s, the box's backoff (up to 3 s), then the long 12 s
            // handshake; 16-17 s of the default 20 s on an idle machine, so a loaded suite ran out of deadline first.
            // What this test holds is the verdict and its words, not the time.
            let patient = Pairing(
                store: folder.unlockedStore(),
                clock: ContinuousClock(),
                wallClock: SystemWallClock(),
                deadline: .seconds(40)
            )
            let error = try await #require(throws: EnrolmentError.self) {
                try await patient.greet(site, relay: Self.relay(relay))
            }
            #expect(error.code == .refused)
            #expect(error.message.contains("no longer knows this phone"))
        }
    }

    @Test func aPhoneWhoseClockReadsTheNextHourAdoptsTheRelaysEpochFrom4409AndPairs() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        _ = try await Self.withBox(DemoBoxState(identity: .generate(), devices: [])) { box, relay in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let pairing = Self.pairing(folder, wallClock: ShiftedWallClock(shiftMs: 3_600_000))
            let dialer = pairing.dialer(rendezvousSecret: link.rendezvousSecret, relay: Self.relay(relay))
            let ours = Rendezvous.epoch(nowMs: SystemWallClock().nowMs)
            #expect(dialer.epoch == ours + 1)
            _ = try await pairing.pair(link, relay: Self.relay(relay), dialer: dialer)
            #expect(dialer.epoch == ours)
            #expect(dialer.path == "/r/\(ours)/\(Rendezvous.handle(secret: link.rendezvousSecret, epoch: ours))/app")
        }
    }

    @Test func aPairedClientFollowsTheEpochTurningOverWith4410() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        _ = try await Self.withBox(DemoBoxState(identity: .generate(), devices: [])) { box, relay in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let pairing = Self.pairing(folder)
            let site = try await pairing.pair(link, relay: Self.relay(relay))
            let dialer = pairing.dialer(rendezvousSecret: site.rendezvousSecret, relay: Self.relay(relay))
            let client = HeadlessClient(
                paired: site,
                store: folder.unlockedStore(),
                dialer: dialer,
                clock: ContinuousClock(),
                wallClock: SystemWallClock(),
                random: SystemRandomSource(),
                policy: .ageKeyed,
                log: DiscardingLogSink()
            )
            let ours = Rendezvous.epoch(nowMs: SystemWallClock().nowMs)
            try await withThrowingTaskGroup(of: Void.self) { group in
                let returns = client.sessionEvents.subscribe()
                group.addTask { try? await client.run() }
                defer { group.cancelAll() }
                try await client.setPhase(.active)
                var streams = 0
                for await event in returns {
                    guard case .streamReturned = event else { continue }
                    streams += 1
                    if streams == 1 { await relay.rotateEpoch() } else { break }
                }
            }
            #expect(dialer.epoch == ours + 1)
            #expect(dialer.path.contains(Rendezvous.handle(secret: site.rendezvousSecret, epoch: ours + 1)))
        }
    }

    @Test func aScenarioRunsOnTheWallClockAgainstThePairedBoxAndCountsTheAsksLog() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // Five seconds of wall clock for the first asks, as over wss below: one second failed once on a loaded
        // CI machine with no ask yet.
        let scenario = try ScenarioParser.parse(
            """
            date 2026-12-02
            timezone Europe/Stockholm
            box latency 120ms
            at 10:00:00 launch; inactive; active; view now
            wait 5s; background
            """
        )
        _ = try await Self.withBox(DemoBoxState(identity: .generate(), devices: [])) { box, relay in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let site = try await Self.pairing(folder).pair(link, relay: Self.relay(relay))
            let runner = ScenarioRunner(scenario: scenario, name: "short")
            let (report, _) = try await runner.runOnWallClock(site: site.site, folder: folder)
            let stay = try #require(report.stays.first)
            #expect(report.stays.count == 1)
            #expect(report.errors.isEmpty)
            #expect(stay.total > 0)
            #expect(stay.total == stay.asksLogged)
            #expect(stay.mismatch == nil)
            #expect(await box.receivedRequests.map(\.type) == stay.requests.map { String($0.prefix { $0 != " " }) })
            #expect(report.notes.contains { $0.contains("not visible") })
            #expect(report.notes.contains { $0.contains("not turned") })
            #expect(report.onWallClock)
            #expect(ReportPrinter(timeZone: .gmt).text(of: report).contains("on the wall clock"))
        }
    }

    /// The demo box's relay over wss, its CA and certificate made in a fresh state folder as `ftw-demobox --tls`
    /// makes them (for `hosts`), around `body`; the phone's folder is handed in too.
    private static func withTLSBox(
        hosts: [String] = DemoBoxTLS.hosts,
        _ body: @escaping @Sendable (SimulatedBox, DemoRelayServer, DemoBoxTLS, DataFolder) async throws -> Void
    ) async throws {
        let state = PhoneWorld.temporaryFolder()
        let phone = PhoneWorld.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: state.url)
            try? FileManager.default.removeItem(at: phone.url)
        }
        let tls = try DemoBoxTLS.loadOrCreate(
            folder: state.url.path,
            nowSeconds: SystemWallClock().nowMs / 1000,
            hosts: hosts
        )
        _ = try await withBox(DemoBoxState(identity: .generate(), devices: []), tls: tls) { box, relay in
            try await body(box, relay, tls, phone)
        }
    }

    private static func secureRelay(_ server: DemoRelayServer) -> RelayAddress {
        RelayAddress(secure: true, host: "127.0.0.1", port: server.port)
    }

    @Test func aPhonePairsGreetsAndRunsAScenarioOverWssTrustingTheDemoBoxsCA() async throws {
        try await Self.withTLSBox { box, relay, tls, phone in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let site = try await Self.pairing(phone).pair(link, relay: Self.secureRelay(relay), caFile: tls.caFile)
            #expect(site.role == "owner")
            #expect(site.relay == "wss://127.0.0.1:\(relay.port)")
            #expect(site.caFile == tls.caFile)
            #expect(try await Self.pairing(phone).greet(site).role == .owner)
            // Five seconds of wall clock: under a loaded CI machine one second held the stream's start but not
            // always the first asks after it (this case and the plain relay's each failed so once).
            let scenario = try ScenarioParser.parse(
                "date 2026-12-02\nat 10:00:00 launch; inactive; active; view now\nwait 5s; background"
            )
            let (report, _) = try await ScenarioRunner(scenario: scenario, name: "wss")
                .runOnWallClock(site: site.site, folder: phone)
            let stay = try #require(report.stays.first)
            #expect(stay.liveMs != nil, "\(stay.notLiveBecause ?? "")")
            #expect(stay.total > 0)
        }
    }

    @Test func withoutTheCAPairingStopsAtOnceNamingTheUntrustedCertificateAndSpendsNoCode() async throws {
        try await Self.withTLSBox { box, relay, _, phone in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let error = try await #require(throws: EnrolmentError.self) {
                try await Self.pairing(phone).pair(link, relay: Self.secureRelay(relay))
            }
            #expect(error.code == .relayNotTrusted)
            #expect(error.message.contains("not trusted"), "\(error.message)")
            #expect(await box.enrolledDevices.isEmpty)
        }
    }

    @Test func aCertificateForAnotherHostStopsPairingNamingTheHost() async throws {
        try await Self.withTLSBox(hosts: ["relay.example"]) { box, relay, tls, phone in
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: ""))
            let error = try await #require(throws: EnrolmentError.self) {
                try await Self.pairing(phone).pair(link, relay: Self.secureRelay(relay), caFile: tls.caFile)
            }
            #expect(error.code == .relayNotTrusted)
            #expect(error.message.contains("127.0.0.1"), "\(error.message)")
            #expect(await box.enrolledDevices.isEmpty)
        }
    }
}
