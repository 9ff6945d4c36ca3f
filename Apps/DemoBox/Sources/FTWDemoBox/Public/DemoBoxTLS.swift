import FTWBus
import FTWTLSCertificates
import FTWWebSocket
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo box's `wss://` material, kept in its state folder: a CA of its own and a server certificate for
/// 127.0.0.1 and localhost signed by it.
///
/// Made on first start and reused after, so a phone given the CA once (`--ca`) keeps trusting the box across
/// restarts. Keys are written 0600 from their first byte; every file is written to a temporary name, flushed to
/// disk and renamed, so a crash leaves the old file or the new one, never half of one.
public struct DemoBoxTLS: Sendable {
    /// The CA certificate's file name, the file a client trusts.
    public static let caFileName = "tls-ca.pem"
    private static let caKeyFileName = "tls-ca-key.pem"
    private static let serverFileName = "tls-server.pem"
    private static let serverKeyFileName = "tls-server-key.pem"
    /// The names the server certificate is valid for: the relay listens on 127.0.0.1 only.
    public static let hosts = ["127.0.0.1", "localhost"]

    /// The CA certificate's path: what a client passes as `--ca`.
    public let caFile: String
    /// The server's certificate and key.
    let server: CertificateAndKey

    /// The chain and key the relay serves.
    var identity: TLSServerIdentity {
        TLSServerIdentity(certificateChainPEM: server.certificatePEM, privateKeyPEM: server.privateKeyPEM)
    }

    /// Reads the CA and server certificate kept in `folder`, or makes and keeps them there when none exist.
    ///
    /// - Parameters:
    ///   - folder: The state folder (created 0700 if missing).
    ///   - nowSeconds: The wall clock in Unix seconds; the CA is valid ten years from it, the server two.
    ///   - hosts: The names a new server certificate is valid for (tests make one for another host).
    /// - Throws: ``DemoBoxError`` `.stateFile` when a file cannot be read or written, or only some of them exist.
    public static func loadOrCreate(
        folder: String,
        nowSeconds: Int64,
        hosts: [String] = DemoBoxTLS.hosts
    ) throws(DemoBoxError) -> DemoBoxTLS {
        let names = [caFileName, caKeyFileName, serverFileName, serverKeyFileName]
        let paths = names.map { (folder as NSString).appendingPathComponent($0) }
        let kept = paths.map { FileManager.default.contents(atPath: $0).map(Array.init) }
        if kept.allSatisfy({ $0 != nil }), let certificate = kept[2], let key = kept[3] {
            return DemoBoxTLS(
                caFile: paths[0],
                server: CertificateAndKey(certificatePEM: certificate, privateKeyPEM: key)
            )
        }
        guard kept.allSatisfy({ $0 == nil }) else {
            throw DemoBoxError(.stateFile, "\(folder) holds only some of the TLS files \(names); remove them all")
        }
        let made: (authority: CertificateAuthority, server: CertificateAndKey)
        do {
            let authority = try CertificateAuthority.make(
                commonName: "ftw-demobox CA",
                validity: .around(now: nowSeconds, days: 3_650)
            )
            let server = try authority.issue(
                commonName: "127.0.0.1",
                hosts: hosts,
                validity: .around(now: nowSeconds, days: 730)
            )
            made = (authority, server)
        } catch {
            throw DemoBoxError(.stateFile, "the TLS certificates could not be made: \(error)", cause: error)
        }
        try makeFolder(folder)
        try keep(made.authority.root.privateKeyPEM, to: paths[1], mode: 0o600)
        try keep(made.server.privateKeyPEM, to: paths[3], mode: 0o600)
        try keep(made.server.certificatePEM, to: paths[2], mode: 0o644)
        try keep(made.authority.root.certificatePEM, to: paths[0], mode: 0o644)
        return DemoBoxTLS(caFile: paths[0], server: made.server)
    }

    private static func makeFolder(_ folder: String) throws(DemoBoxError) {
        do {
            try FileManager.default.createDirectory(
                atPath: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw DemoBoxError(.stateFile, "cannot make the state folder \(folder): \(error)", cause: error)
        }
    }

    /// Writes `bytes` to a temporary file made with `mode`, flushes it, renames it over `path`, and flushes the
    /// folder so the rename itself survives a crash.
    private static func keep(_ bytes: [UInt8], to path: String, mode: mode_t) throws(DemoBoxError) {
        let temporary = "\(path).\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw DemoBoxError(.stateFile, "cannot create \(temporary): errno \(errno)") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written)
            }
            guard count > 0 else { break }
            written += count
        }
        let flushed = written == bytes.count && fsync(descriptor) == 0
        close(descriptor)
        guard flushed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw DemoBoxError(.stateFile, "cannot write \(path): errno \(errno)")
        }
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
