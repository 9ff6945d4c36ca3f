import FTWClockSeam
import FTWClockSeamTesting
import FTWTLSCertificates
import FTWWebSocket
import Foundation
import Testing

/// `wss://` on 127.0.0.1: our TLS client against our TLS server, with certificates each test makes, and a recording
/// TCP server in between so every test can say what went over the wire.
@Suite(.timeLimit(.minutes(1)))
struct TLSLoopbackTests {
    @Test func aWssEchoRoundTripCarriesEveryMessageEncrypted() async throws {
        let certificates = try TestCertificates()
        try await withServer(tls: TestCertificates.identity(certificates.good), handler: echoHandler) { server in
            let proxy = try RecordingTCPServer(.forward(port: server.port))
            defer { proxy.stop() }
            let client = try await Self.connect(port: proxy.port, tls: certificates.trust)
            let secret = "the relay must never read this"
            try await client.send(.text(secret))
            #expect(try await client.receive() == .text(secret))
            let payload = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try await client.send(.binary(payload))
            #expect(try await client.receive() == .binary(payload))
            try await client.ping()
            await client.close()
            #expect(client.closeCode == 1000)
            await proxy.waitForClientEnd()
            #expect(proxy.bytes.count > payload.count)
            #expect(!Self.contains(proxy.bytes, Array(secret.utf8)))
            #expect(!Self.contains(proxy.bytes, Array("Upgrade: websocket".utf8)))
        }
    }

    @Test func aCertificateFromAnUnknownCAIsRefusedBeforeAnyWebSocketByte() async throws {
        let certificates = try TestCertificates()
        let error = try await Self.failedHandshake(serving: certificates.unknownCA, trust: certificates.trust)
        #expect(error.code == .tlsUntrustedCertificate)
        #expect(error.message.contains("is not trusted"), "\(error)")
    }

    @Test func aSelfSignedLeafIsRefusedBeforeAnyWebSocketByte() async throws {
        let certificates = try TestCertificates()
        let error = try await Self.failedHandshake(serving: certificates.selfSigned, trust: certificates.trust)
        #expect(error.code == .tlsUntrustedCertificate)
        #expect(error.message.contains("self-signed"), "\(error)")
    }

    @Test func theSystemTrustStoreAloneDoesNotTrustATestCA() async throws {
        let certificates = try TestCertificates()
        let error = try await Self.failedHandshake(serving: certificates.good, trust: TLSConfiguration())
        #expect(error.code == .tlsUntrustedCertificate)
    }

    @Test func anExpiredCertificateIsRefusedBeforeAnyWebSocketByte() async throws {
        let certificates = try TestCertificates()
        let error = try await Self.failedHandshake(serving: certificates.expired, trust: certificates.trust)
        #expect(error.code == .tlsCertificateExpired)
        #expect(error.message.contains("has expired"), "\(error)")
    }

    @Test func aCertificateForAnotherHostIsRefusedNamingTheHostExpected() async throws {
        let certificates = try TestCertificates()
        let error = try await Self.failedHandshake(serving: certificates.wrongHost, trust: certificates.trust)
        #expect(error.code == .tlsWrongHost)
        #expect(error.message.contains("is not valid for 127.0.0.1"), "\(error)")
    }

    @Test func aPlainWebSocketServerOnTheWssPortIsNamedAsPlainText() async throws {
        let reached = Mailbox<String>()
        let trust = try TestCertificates().trust
        try await withServer(handler: { reached.post($0.path) }) { server in
            let proxy = try RecordingTCPServer(.forward(port: server.port))
            defer { proxy.stop() }
            let error = await caught { () async throws(WebSocketError) in
                try await Self.connect(port: proxy.port, tls: trust)
            }
            #expect(error?.code == .tlsPlainTextServer)
            #expect(error?.message.contains("it began \"HTTP/1.1 400") == true, "\(String(describing: error))")
            await proxy.waitForClientEnd()
            #expect(TLSRecords(proxy.bytes).isOnlyTheHello)
        }
        reached.post("nobody")
        #expect(await reached.next() == "nobody")
    }

    @Test func aServerThatNeverAnswersTheHelloTimesOutOnTheInjectedClock() async throws {
        let silent = try RecordingTCPServer(.silent)
        defer { silent.stop() }
        let clock = ManualClock(originMs: 0)
        let trust = try TestCertificates().trust
        async let outcome = caught { () async throws(WebSocketError) in
            try await WebSocketClient.connect(
                host: "127.0.0.1",
                port: silent.port,
                path: "/",
                limits: WebSocketLimits(handshakeTimeout: .seconds(3)),
                clock: clock,
                tls: trust
            )
        }
        await silent.waitForFirstBytes()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(3))
        let error = await outcome
        #expect(error?.code == .tlsHandshakeTimeout)
        #expect(error?.message.contains("did not finish the TLS handshake") == true, "\(String(describing: error))")
        await silent.waitForClientEnd()
        #expect(TLSRecords(silent.bytes).isOnlyTheHello)
    }

    @Test func aServerThatHangsUpDuringTheHandshakeIsNamedAsMissingCloseNotify() async throws {
        let trust = try TestCertificates().trust
        let server = try RecordingTCPServer(.hangUpAfterFirstBytes)
        defer { server.stop() }
        let error = await caught { () async throws(WebSocketError) in
            try await Self.connect(port: server.port, tls: trust)
        }
        #expect(error?.code == .tlsNoCloseNotify)
        #expect(error?.message.contains("without TLS close_notify") == true, "\(String(describing: error))")
        await server.waitForClientEnd()
        #expect(TLSRecords(server.bytes).isOnlyTheHello)
    }

    @Test func aConnectionCutWithoutCloseNotifyEndsWithThatError() async throws {
        let certificates = try TestCertificates()
        try await withServer(tls: TestCertificates.identity(certificates.good), handler: echoHandler) { server in
            let proxy = try RecordingTCPServer(.forward(port: server.port))
            defer { proxy.stop() }
            let client = try await Self.connect(port: proxy.port, tls: certificates.trust)
            try await client.send(.text("before"))
            #expect(try await client.receive() == .text("before"))
            proxy.cut()
            let error = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(error?.code == .tlsNoCloseNotify)
            #expect(error?.closeCode == 1006)
        }
    }

    @Test func aRecordAlteredOnThePathEndsTheConnectionAndIsNeverDelivered() async throws {
        let certificates = try TestCertificates()
        try await withServer(tls: TestCertificates.identity(certificates.good), handler: echoHandler) { server in
            let proxy = try RecordingTCPServer(.forward(port: server.port))
            defer { proxy.stop() }
            let client = try await Self.connect(port: proxy.port, tls: certificates.trust)
            try await client.send(.text("first"))
            #expect(try await client.receive() == .text("first"))
            proxy.corruptNextAnswer()
            try await client.send(.text("second"))
            let error = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(error?.code == .connectionLost)
            #expect(error?.closeCode == 1006)
            #expect(error?.message.contains("a TLS record from 127.0.0.1:\(proxy.port) was rejected") == true)
        }
    }

    @Test func aTrustRootFileThatCannotBeReadIsNamed() async throws {
        let error = await caught { () async throws(WebSocketError) in
            try await Self.connect(port: 9, tls: .trusting(caFile: "/nonexistent/ca.pem"))
        }
        #expect(error?.code == .tlsConfiguration)
        #expect(error?.message == "the CA file /nonexistent/ca.pem cannot be read")
    }

    @Test func aServerKeyThatDoesNotMatchItsCertificateIsRefused() throws {
        let certificates = try TestCertificates()
        let mismatched = TLSServerIdentity(
            certificateChainPEM: certificates.good.certificatePEM,
            privateKeyPEM: certificates.expired.privateKeyPEM
        )
        let error = #expect(throws: WebSocketError.self) {
            try WebSocketServer(port: 0, limits: WebSocketLimits(), clock: ContinuousClock(), tls: mismatched)
        }
        #expect(error?.code == .tlsConfiguration)
    }

    /// Serves `leaf` over TLS behind a recording proxy, dials it trusting `trust`, and returns the client's error
    /// after checking that the client sent nothing past its ClientHello but an alert and the server's handler
    /// never ran.
    private static func failedHandshake(
        serving leaf: CertificateAndKey,
        trust: TLSConfiguration
    ) async throws -> WebSocketError {
        let reached = Mailbox<String>()
        let error = try await withServer(tls: TestCertificates.identity(leaf), handler: { reached.post($0.path) }) {
            server in
            let proxy = try RecordingTCPServer(.forward(port: server.port))
            defer { proxy.stop() }
            let error = await caught { () async throws(WebSocketError) in
                try await connect(port: proxy.port, tls: trust)
            }
            await proxy.waitForClientEnd()
            let records = TLSRecords(proxy.bytes)
            #expect(records.endsAfterTheHello, "\(String(describing: records.records))")
            return try #require(error)
        }
        reached.post("nobody")
        #expect(await reached.next() == "nobody")
        #expect(error.message.contains("127.0.0.1:"), "\(error)")
        return error
    }

    /// Dials `wss://127.0.0.1:port/path` on the real clock.
    static func connect(
        port: Int,
        path: String = "/tls",
        tls: TLSConfiguration
    ) async throws(WebSocketError) -> WebSocketConnection {
        try await WebSocketClient.connect(
            host: "127.0.0.1",
            port: port,
            path: path,
            limits: WebSocketLimits(),
            clock: ContinuousClock(),
            tls: tls
        )
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }
}
