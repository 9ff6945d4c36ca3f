#if canImport(Glibc)
import Foundation
import FTWTLSCertificates
import Testing

@testable import FTWWebSocket

/// The system's CAs looked up on demand in a hashed folder (``SystemTrustStore``), with a folder each test makes:
/// when the CA bundle is skipped, and that verification through the folder alone is as strict as before.
struct SystemTrustStoreTests {
    /// A temporary folder, a CA written into it under its subject hash, and a stand-in for the system's bundle.
    private struct World {
        let folder: URL
        let bundle: String
        let authority: CertificateAuthority
        let validity: CertificateAuthority.Validity

        init(hashing: Bool = true) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-trust-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let now = Int64(Date().timeIntervalSince1970)
            validity = .around(now: now, days: 30)
            authority = try CertificateAuthority.make(commonName: "ftw system CA", validity: validity)
            bundle = folder.appendingPathComponent("ca-certificates.crt").path
            try Data(authority.root.certificatePEM).write(to: URL(fileURLWithPath: bundle))
            if hashing { try authority.writeHashed(into: folder.path) }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func aHashedFolderBesideTheSystemsOwnBundleIsLookedUpAloneAndTheBundleIsNotRead() throws {
        let world = try World()
        defer { world.remove() }
        let link = world.folder.appendingPathComponent("cert.pem").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: world.bundle)
        let location = SystemTrustStore.location(folders: world.folder.path, bundle: link, systemBundle: world.bundle)
        #expect(location == SystemTrustStore.Location(folders: world.folder.path, bundle: nil))
    }

    @Test func aFolderWithoutHashedNamesKeepsTheBundle() throws {
        let world = try World(hashing: false)
        defer { world.remove() }
        let location = SystemTrustStore.location(
            folders: world.folder.path,
            bundle: world.bundle,
            systemBundle: world.bundle
        )
        #expect(location.bundle == world.bundle)
    }

    @Test func aBundleNamedBesidesTheSystemsIsStillRead() throws {
        let world = try World()
        defer { world.remove() }
        let mine = world.folder.appendingPathComponent("mine.pem").path
        try Data(world.authority.root.certificatePEM).write(to: URL(fileURLWithPath: mine))
        let location = SystemTrustStore.location(folders: world.folder.path, bundle: mine, systemBundle: world.bundle)
        #expect(location.bundle == mine)
    }

    @Test func aServerIsVerifiedThroughTheHashedFolderAlone() throws {
        let world = try World()
        defer { world.remove() }
        let leaf = try world.authority.issue(commonName: "localhost", hosts: ["localhost"], validity: world.validity)
        #expect(try Self.handshake(trusting: world, serving: leaf) == nil)
    }

    @Test func aCANotInTheFolderIsNotTrustedThroughIt() throws {
        let world = try World(hashing: false)
        defer { world.remove() }
        let leaf = try world.authority.issue(commonName: "localhost", hosts: ["localhost"], validity: world.validity)
        #expect(try Self.handshake(trusting: world, serving: leaf)?.code == .tlsUntrustedCertificate)
    }

    @Test func aCertificateFoundThroughTheFolderIsCheckedAsStrictly() throws {
        let world = try World()
        defer { world.remove() }
        let now = Int64(Date().timeIntervalSince1970)
        let expired = try world.authority.issue(
            commonName: "localhost",
            hosts: ["localhost"],
            validity: .init(notBefore: now - 30 * 86_400, notAfter: now - 86_400)
        )
        let elsewhere = try world.authority.issue(commonName: "x", hosts: ["relay.example"], validity: world.validity)
        let nameless = try world.authority.issue(commonName: "localhost", hosts: [], validity: world.validity)
        #expect(try Self.handshake(trusting: world, serving: expired)?.code == .tlsCertificateExpired)
        #expect(try Self.handshake(trusting: world, serving: elsewhere)?.code == .tlsWrongHost)
        #expect(try Self.handshake(trusting: world, serving: nameless)?.code == .tlsWrongHost)
    }

    /// A TLS handshake in memory between a client for `localhost` trusting only `world`'s folder (no bundle, no
    /// extra root) and a server presenting `leaf`; nil when it completed, else the client's error.
    private static func handshake(trusting world: World, serving leaf: CertificateAndKey) throws -> WebSocketError? {
        let system = SystemTrustStore.Location(folders: world.folder.path, bundle: nil)
        let client = try TLSEngine(
            context: TLSContext.client(TLSConfiguration(), system: system),
            host: "localhost",
            port: 443
        )
        let server = try TLSEngine(
            context: TLSContext.server(
                TLSServerIdentity(certificateChainPEM: leaf.certificatePEM, privateKeyPEM: leaf.privateKeyPEM)
            ),
            host: "client",
            port: 0
        )
        for _ in 0..<8 {
            let step = client.handshake()
            _ = client.takeOutput().withUnsafeBytes { server.feed($0) }
            if case .failed(let error) = step { return error }
            let serverStep = server.handshake()
            if let error = server.takeOutput().withUnsafeBytes({ client.feed($0) }) { return error }
            if case .done = step, case .done = serverStep { return nil }
        }
        return WebSocketError(.timeout, "the handshake did not finish in 8 round trips")
    }
}
#endif
