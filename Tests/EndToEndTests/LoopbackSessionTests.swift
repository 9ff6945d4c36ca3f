import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWDemoBox
import FTWFixtures
import FTWNoise
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWWebSocket
import Foundation
import Testing

/// The live session over real sockets on 127.0.0.1: `RelayDialer` → WebSocket → `DemoRelayServer` → the demo box,
/// Noise end to end. These tests wait on I/O, each wait capped by a deadline.
@Suite struct LoopbackSessionTests {
    /// What a loopback test works with.
    struct Loopback: Sendable {
        let session: LiveSession
        let box: SimulatedBox
        let relay: DemoRelayServer
        let dialer: RelayDialer
        let recorder: EventRecorder
    }

    /// A demo box and its relay on the real clocks, and a live session dialling it, running around `body`; with
    /// `tls` the relay serves `wss://` with a CA made in `tls`'s folder, and the dialer trusts that CA's file.
    private static func withLoopback(
        random: any RandomSource = SystemRandomSource(),
        tls: DemoBoxTLS? = nil,
        _ body: @Sendable (Loopback) async throws -> Void
    ) async throws {
        let box = SimulatedBox(
            configuration: WallClockRelay.configuration,
            clock: ContinuousClock(),
            wallClock: SystemWallClock()
        )
        let relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock(), tls: tls)
        let events = EventBus<SessionEvent>()
        let dialer = RelayDialer(
            host: "127.0.0.1",
            port: relay.port,
            rendezvousSecret: await box.rendezvousSecret,
            clock: ContinuousClock(),
            wallClock: SystemWallClock(),
            tls: tls.map { .trusting(caFile: $0.caFile) }
        )
        let session = LiveSession(
            dialer: dialer,
            identity: SessionIdentity(
                appStaticPrivateKey: DemoWorld.appPrivateKey,
                boxStaticPublicKey: box.boxStaticPublicKey,
                payload: await box.mintPairingCode()
            ),
            configuration: SessionConfiguration(build: "loopback"),
            clock: ContinuousClock(),
            wallClock: SystemWallClock(),
            random: random,
            log: DiscardingLogSink(),
            events: events
        )
        let recorder = EventRecorder(events.subscribe(), wallClock: SystemWallClock())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            group.addTask { try await session.run() }
            group.addTask { await recorder.run() }
            defer { group.cancelAll() }
            try await body(Loopback(session: session, box: box, relay: relay, dialer: dialer, recorder: recorder))
            await session.setPhase(.background)
            await relay.close()
        }
    }

    /// Waits on the session's events, for at most a minute of real time, until the stream has come back `count`
    /// times.
    private static func returns(_ count: Int, _ recorder: EventRecorder) async throws {
        try await TimeLimit.within(.seconds(60), on: ContinuousClock(), "return \(count) of the stream") {
            await recorder.wait { events in
                events.filter { if case .streamReturned = $0 { true } else { false } }.count == count
            }
        }
    }

    /// Runs `body` with the demo box's `--tls` files made in a fresh folder when `overTLS`, or with nil.
    private static func withDemoTLS(
        _ overTLS: Bool,
        _ body: (DemoBoxTLS?) async throws -> Void
    ) async throws {
        guard overTLS else { return try await body(nil) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wss-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(try DemoBoxTLS.loadOrCreate(folder: folder, nowSeconds: SystemWallClock().nowMs / 1000))
    }

    @Test(arguments: [false, true])
    func aSessionEnrolsThroughTheRelayReadsAndReconnectsAsAKnownDevice(overTLS: Bool) async throws {
        try await Self.withDemoTLS(overTLS) { tls in try await Self.enrolReadAndReconnect(tls: tls) }
    }

    private static func enrolReadAndReconnect(tls: DemoBoxTLS?) async throws {
        try await Self.withLoopback(tls: tls) { loopback in
            let (session, box, recorder) = (loopback.session, loopback.box, loopback.recorder)
            await session.setPhase(.inactive)
            await session.setPhase(.active)
            try await Self.returns(1, recorder)
            #expect(await box.enrolledDevices.count == 1)
            let response = try await session.read(
                .api(APIRequest(method: "GET", path: "/api/loadpoints")),
                order: .chargers
            )
            #expect(response.status == 200)
            await box.cutCarriers()
            try await Self.returns(2, recorder)
            #expect(await session.identity.isKnownDevice)
            #expect(await box.enrolledDevices.count == 1)
            _ = try await session.read(.plan, order: .plan)
            let asks = await session.asks
            let received = await box.receivedRequests
            #expect(asks.map(\.type) == received.map(\.type))
            #expect(asks.map(\.id) == received.map { $0.id ?? 0 })
            #expect(received.map(\.connection) == [1, 2])
        }
    }

    @Test func aDialerWithoutTheDemoCAIsRefusedNamingTheUntrustedCertificate() async throws {
        try await Self.withDemoTLS(true) { tls in
            try await Self.withLoopback(tls: tls) { loopback in
                let untrusting = RelayDialer(
                    host: "127.0.0.1",
                    port: loopback.relay.port,
                    rendezvousSecret: await loopback.box.rendezvousSecret,
                    clock: ContinuousClock(),
                    wallClock: SystemWallClock(),
                    tls: TLSConfiguration()
                )
                let refusal = await #expect(throws: SessionError.self) { try await untrusting.dial() }
                #expect(refusal?.code == .relayNotTrusted)
                #expect(
                    refusal?.message.contains("certificate of 127.0.0.1:\(loopback.relay.port) is not trusted") == true
                )
            }
        }
    }

    @Test func aRotatedEpochIsAdoptedAndTheSessionRejoinsInTheNewRoom() async throws {
        try await Self.withLoopback(random: ScriptedRandom([0.01])) { loopback in
            let localEpoch = Rendezvous.epoch(nowMs: SystemWallClock().nowMs)
            await loopback.session.setPhase(.active)
            try await Self.returns(1, loopback.recorder)
            await loopback.relay.rotateEpoch()
            try await Self.returns(2, loopback.recorder)
            #expect(loopback.dialer.epoch == localEpoch + 1)
            let closes = await loopback.recorder.closes(since: 0).map(\.reason.message)
            #expect(closes.contains { $0.hasPrefix("the carrier closed (4410 ") })
        }
    }
}
