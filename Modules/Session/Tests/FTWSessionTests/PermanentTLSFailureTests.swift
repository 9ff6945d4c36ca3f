#if canImport(Glibc)
import FTWBus
import FTWFixtures
import FTWClockSeam
import Foundation
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import FTWTLSCertificates
import Testing
import FTWWebSocket

/// A running session whose dials meet a TLS failure no redial of the same server changes (an untrusted or expired
/// certificate, a wrong host): it keeps dialling with the path's backoff and says why on every close, rather than
/// halting until the next return. Such a failure is permanent for the server that answered, not for the phone's path:
/// a captive portal answers with its own certificate until the person logs in, a phone walks from a hotel's Wi-Fi onto
/// its mobile network, an expired relay certificate is renewed, and the session hears of none of these. A redial
/// costs one TCP connect and one TLS handshake that sends nothing past the failed verification (no upgrade, no join of
/// the relay's allowance, no Noise message, no pairing code), at most once a minute once the backoff reaches its cap.
/// `pair` and `greet` stop at once instead (`HostileRelayTLSTests`): a person waits at the command.
@Suite struct PermanentTLSFailureTests {
    private static let notTrusted = SessionError(
        .relayNotTrusted,
        "the TLS certificate of relay.ftw.energy:443 is not trusted: it is signed by no CA this phone trusts"
    )

    /// Behind a captive portal for four minutes: ten dials meet a certificate that does not verify, each after the
    /// path's backoff (random × min(60 s, 500 ms · 2^n)), each close naming it; the first dial that reaches the relay
    /// goes live, with no return from the background.
    @Test func aPortalsCertificateIsDialledAgainWithThePathsBackoffUntilTheRelayAnswers() async throws {
        try await SessionWorld.run(random: ScriptedRandom([0.999_999])) { world in
            world.dialer.failNextDials(10, with: Self.notTrusted)
            await world.comeToFront()
            await world.advance(by: .seconds(300))
            let dials = await world.recorder.dialTimes(since: SessionWorld.originMs)
            let waits = zip(dials.dropFirst(), dials).map { $0 - $1 }
            #expect(waits == [499, 999, 1_999, 3_999, 7_999, 15_999, 31_999, 59_999, 59_999, 59_999])
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.count == 10 && closes.allSatisfy { $0.reason.code == .relayNotTrusted })
            #expect(closes.first?.reason.message.contains("is not trusted") == true, "\(closes.first?.reason)")
            guard case .streaming = await world.session.connectionState else {
                Issue.record("the session did not go live once the relay answered")
                return
            }
        }
    }

    /// A pairing's or a greeting's session (`haltsOnUntrustedRelay`) halts at the first untrusted relay, in the
    /// dial's own transition: one dial in five minutes, its close naming the fault, whoever watches it however late.
    @Test func aSessionThatHaltsOnAnUntrustedRelayDialsItOnce() async throws {
        var configuration = SessionConfiguration(build: "pairing")
        configuration.haltsOnUntrustedRelay = true
        try await SessionWorld.run(configuration: configuration) { world in
            world.dialer.failNextDials(10, with: Self.notTrusted)
            await world.comeToFront()
            await world.advance(by: .seconds(300))
            #expect(await world.recorder.dialTimes(since: SessionWorld.originMs).count == 1)
            let closes = await world.recorder.closes(since: SessionWorld.originMs)
            #expect(closes.map(\.reason.code) == [.relayNotTrusted])
        }
    }

    /// The same over real sockets: a running session dialling a `wss://` relay whose leaf is signed by a certificate
    /// that is not a CA dials it again and again (the server counts the connections), and its last close names the
    /// fault; nothing halts it.
    @Test(.timeLimit(.minutes(1)))
    func aRunningSessionRedialsARelayWhoseCertificateDoesNotVerify() async throws {
        let now = SystemWallClock().nowMs / 1000
        let validity = CertificateAuthority.Validity.around(now: now, days: 30)
        let authority = try CertificateAuthority.make(commonName: "ftw test CA", validity: validity)
        let server = try HostileTLSServer(.leafSignedByNonCA, authority: authority, validity: validity)
        defer { server.stop() }
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-ca-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: caFile) }
        try Data(authority.root.certificatePEM).write(to: caFile)
        let events = EventBus<SessionEvent>()
        let session = LiveSession(
            dialer: RelayDialer(
                host: "localhost",
                port: server.port,
                rendezvousSecret: [UInt8](repeating: 7, count: 32),
                clock: ContinuousClock(),
                wallClock: SystemWallClock(),
                tls: .trusting(caFile: caFile.path)
            ),
            identity: SessionIdentity(
                appStaticPrivateKey: ScriptedBox.appPrivateKey,
                boxStaticPublicKey: ScriptedBox.staticPublicKey,
                payload: []
            ),
            configuration: SessionConfiguration(build: "portal"),
            clock: ContinuousClock(),
            wallClock: SystemWallClock(),
            random: ScriptedRandom([0.5]),
            log: DiscardingLogSink(),
            events: events
        )
        let recorder = EventRecorder(events.subscribe(), wallClock: SystemWallClock())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await session.run() }
            group.addTask { await recorder.run() }
            defer { group.cancelAll() }
            await session.setPhase(.active)
            try await TimeLimit.within(.seconds(30), on: ContinuousClock(), "three refused dials") {
                await recorder.wait { events in
                    events.filter { event in
                        guard case .connection(.closed(let reason)) = event else { return false }
                        return reason.code == .relayNotTrusted
                    }.count >= 3
                }
            }
            #expect(server.dials >= 3, "dialled again after the failure")
            let close = await session.lastClose
            #expect(close?.code == .relayNotTrusted, "\(String(describing: close))")
            #expect(close?.message.contains("is signed by a certificate that is not a CA") == true)
            await session.close()
        }
    }
}
#endif
