#if canImport(Glibc)
import FTWClockSeam
import FTWDemoBox
import FTWClient
import Foundation
import FTWHeadlessTooling
import FTWSealInterface
import FTWSession
import FTWSessionInterface
import FTWTLSCertificates
import Testing

/// `pair` and `greet` through a `wss://` relay that can never answer otherwise (``HostileTLSServer``): each stops at
/// its first dial, counted by the server, with the fault named in one line; none waits out the pairing's deadline.
@Suite(.timeLimit(.minutes(2)))
struct HostileRelayTLSTests {
    /// The fault, the words that name it, as a person reads them.
    private static let named: [HostileTLSServer.Fault: String] = [
        .leafSignedByNonCA: "is signed by a certificate that is not a CA",
        .clientOnlyLeaf: "its extended key usage does not allow server authentication",
        .commonNameOnly: "it has no subjectAltName",
        .tls11Only: "TLS 1.2 or later is required",
        .oversizeRecord: "a TLS record longer than TLS allows",
    ]

    @Test(arguments: HostileTLSServer.Fault.allCases)
    func pairingStopsAtTheFirstDialNamingTheFault(_ fault: HostileTLSServer.Fault) async throws {
        try await Self.withHostileRelay(fault) { relay, caFile, pairing, server in
            let link = try EnrolmentURL(
                parsing: DemoBoxIdentity.generate().enrolmentURL(
                    pairingCode: [UInt8](repeating: 7, count: 16),
                    lanHint: ""
                )
            )
            let error = try await #require(throws: EnrolmentError.self) {
                try await pairing.pair(link, relay: relay, caFile: caFile)
            }
            Self.expectNamed(fault, error, dials: server.dials)
        }
    }

    @Test(arguments: HostileTLSServer.Fault.allCases)
    func greetingStopsAtTheFirstDialNamingTheFault(_ fault: HostileTLSServer.Fault) async throws {
        try await Self.withHostileRelay(fault) { relay, caFile, pairing, server in
            let site = PairedSite(
                site: try #require(SiteID(rawValue: "0123456789abcdef")),
                boxStaticPublicKey: [UInt8](repeating: 9, count: 32),
                rendezvousSecret: [UInt8](repeating: 5, count: 32),
                lanHint: "",
                devicePrivateKey: [UInt8](repeating: 3, count: 32),
                pairingCode: [],
                role: "owner",
                relay: relay.description,
                caFile: caFile
            )
            let error = try await #require(throws: EnrolmentError.self) { try await pairing.greet(site) }
            Self.expectNamed(fault, error, dials: server.dials)
        }
    }

    private static func expectNamed(_ fault: HostileTLSServer.Fault, _ error: EnrolmentError, dials: Int) {
        #expect(error.code == .relayNotTrusted, "\(fault): \(error.message)")
        #expect(error.message.contains(named[fault] ?? "?"), "\(fault): \(error.message)")
        #expect(!error.message.contains("\n"))
        #expect(dials == 1, "\(fault): \(dials) dials")
    }

    /// A hostile relay on `localhost` whose certificates chain to a CA kept in a file, and a pairing on the real
    /// clocks with a fresh phone folder, around `body`.
    private static func withHostileRelay(
        _ fault: HostileTLSServer.Fault,
        _ body: (RelayAddress, String, Pairing, HostileTLSServer) async throws -> Void
    ) async throws {
        let now = SystemWallClock().nowMs / 1000
        let validity = CertificateAuthority.Validity.around(now: now, days: 30)
        let authority = try CertificateAuthority.make(commonName: "ftw test CA", validity: validity)
        let server = try HostileTLSServer(fault, authority: authority, validity: validity)
        defer { server.stop() }
        let phone = PhoneWorld.temporaryFolder()
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-ca-\(UUID().uuidString).pem")
        defer {
            try? FileManager.default.removeItem(at: phone.url)
            try? FileManager.default.removeItem(at: caFile)
        }
        try Data(authority.root.certificatePEM).write(to: caFile)
        let pairing = Pairing(store: phone.unlockedStore(), clock: ContinuousClock(), wallClock: SystemWallClock())
        let relay = RelayAddress(secure: true, host: "localhost", port: server.port)
        try await body(relay, caFile.path, pairing, server)
    }
}
#endif
