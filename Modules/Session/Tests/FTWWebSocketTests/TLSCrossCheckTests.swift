import FTWTLSCertificates
import FTWWebSocket
import Foundation
import Testing

/// `wss://` against an independent TLS stack: Python's `ssl` with `websockets` as the server our client verifies,
/// and as the client that verifies our server. Runs when `FTW_CROSSCHECK=1`, like ``CrossCheckTests``.
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["FTW_CROSSCHECK"] == "1"),
    .timeLimit(.minutes(1))
)
struct TLSCrossCheckTests {
    @Test func ourWssClientVerifiesAndTalksToPythonsTLSServer() async throws {
        let certificates = try TestCertificates()
        let files = try PEMFiles(certificates.good, authority: certificates.authority)
        defer { files.remove() }
        let server = try PythonPeer.start(["server", files.certificate, files.key])
        defer { server.stop() }
        let port = try #require(await server.port())
        let client = try await TLSLoopbackTests.connect(
            port: port,
            path: "/crosscheck",
            tls: .trusting(caFile: files.authority)
        )
        try await client.send(.text("Grüße ⚡️"))
        #expect(try await client.receive() == .text("Grüße ⚡️"))
        let payload = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try await client.send(.binary(payload))
        #expect(try await client.receive() == .binary(payload))
        try await client.ping()
        try await client.send(.text("close 4409 493828"))
        let error = await caught { () async throws(WebSocketError) in try await client.receive() }
        #expect(error?.code == .closed)
        #expect(client.closeCode == 4409)
    }

    @Test func ourWssClientRefusesPythonServingASelfSignedLeaf() async throws {
        let certificates = try TestCertificates()
        let files = try PEMFiles(certificates.selfSigned, authority: certificates.authority)
        defer { files.remove() }
        let server = try PythonPeer.start(["server", files.certificate, files.key])
        defer { server.stop() }
        let port = try #require(await server.port())
        let error = await caught { () async throws(WebSocketError) in
            try await TLSLoopbackTests.connect(port: port, path: "/crosscheck", tls: .trusting(caFile: files.authority))
        }
        #expect(error?.code == .tlsUntrustedCertificate)
    }

    @Test func pythonsWssClientVerifiesAndTalksToOurTLSServer() async throws {
        let certificates = try TestCertificates()
        let files = try PEMFiles(certificates.good, authority: certificates.authority)
        defer { files.remove() }
        try await withServer(tls: TestCertificates.identity(certificates.good), handler: CrossCheckTests.handler) {
            server in
            let run = try await PythonPeer.run(["client", "\(server.port)", files.authority])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.hasPrefix("OK"), "\(run.output)")
        }
    }
}

/// A server certificate, its key and the CA, written to a fresh folder for Python to read.
private struct PEMFiles {
    let folder: URL
    let certificate: String
    let key: String
    let authority: String

    init(_ leaf: CertificateAndKey, authority ca: CertificateAuthority) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-crosscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        certificate = folder.appendingPathComponent("server.pem").path
        key = folder.appendingPathComponent("server-key.pem").path
        authority = folder.appendingPathComponent("ca.pem").path
        try Data(leaf.certificatePEM).write(to: URL(fileURLWithPath: certificate))
        try Data(leaf.privateKeyPEM).write(to: URL(fileURLWithPath: key))
        try Data(ca.root.certificatePEM).write(to: URL(fileURLWithPath: authority))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
