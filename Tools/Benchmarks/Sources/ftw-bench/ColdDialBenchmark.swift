import CFTWOpenSSL
import FTWClockSeam
import FTWCrypto
import FTWTLSCertificates
import FTWWebSocket
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `ftw-bench tls-dial [--cold] [--trust ca|system] [--dials N]`: what a process's first `wss://` dial costs against the
/// dials after it, the cost a relaunch pays before its first frame.
///
/// A TLS echo server runs in a child process (`ftw-bench tls-dial serve FOLDER`, which makes its certificates in FOLDER),
/// so only the client is counted. The client initialises libcrypto as the app does (no configuration file), then
/// dials `wss://127.0.0.1` N times in one process: each dial is TCP, the TLS handshake with full verification, the
/// upgrade and one echo. The first finds no TLS context (no trust loaded, libssl not yet used); the rest reuse the
/// one it made. Printed: the CPU time (user + system, every thread, `getrusage`) and wall time of the first dial, the
/// medians of the others, and the difference. `--trust ca` trusts the system store plus the test CA (`--ca FILE`, the
/// demo box's way); `--trust system` trusts the system store alone, made to hold the test CA too: `SSL_CERT_DIR`
/// names a copy of the system's hashed folder with the CA added under its hash, so the dial verifies through the
/// system store's own path.
///
/// For instruction counts, `Tools/Benchmarks/cold-dial.sh` starts the server itself and runs the client alone
/// (`tls-dial --connect PORT --folder FOLDER`) under callgrind, which dumps a profile part at each
/// ``callgrindDumpMark(_:)``: one part per dial, all in one process (valgrind cannot start the child itself).
enum ColdDialBenchmark {
    private static let usage =
        "usage: ftw-bench tls-dial [--cold] [--trust ca|system] [--dials N] [--connect PORT --folder FOLDER]"
        + " | tls-dial serve FOLDER"

    static func run(arguments: [String]) async {
        if arguments.first == "serve", arguments.count == 2 {
            return await serve(folder: URL(fileURLWithPath: arguments[1]))
        }
        var trust = "ca"
        var dials = 11
        var port: Int?
        var folder: URL?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch (argument, rest.first) {
            case ("--cold", _): continue
            case ("--trust", "ca"?), ("--trust", "system"?): trust = rest.removeFirst()
            case ("--dials", let count?) where (Int(count) ?? 0) >= 2: dials = Int(rest.removeFirst()) ?? dials
            case ("--connect", let number?) where Int(number) != nil: port = Int(rest.removeFirst())
            case ("--folder", _?): folder = URL(fileURLWithPath: rest.removeFirst())
            default: return print(usage)
            }
        }
        _ = SecureRandom.bytes(count: 1)
        do {
            if let port, let folder {
                try await measure(port: port, folder: folder, trust: trust, dials: dials)
            } else {
                try await measureWithServer(trust: trust, dials: dials)
            }
        } catch {
            print("tls-dial: \(error)")
        }
    }

    /// A function callgrind's `--dump-before` names, so each dial is a profile part of its own.
    @inline(never) static func callgrindDumpMark(_ label: String) {
        guard label.isEmpty else { return }
        print("", terminator: "")
    }

    /// Starts the server child in a fresh folder, measures, and ends the child by closing its standard input.
    private static func measureWithServer(trust: String, dials: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ftw-bench-dial-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = Process()
        child.executableURL = Bundle.main.executableURL ?? URL(filePath: CommandLine.arguments[0])
        child.arguments = ["tls-dial", "serve", folder.path]
        let input = Pipe()
        let output = Pipe()
        child.standardInput = input
        child.standardOutput = output
        try child.run()
        defer { try? input.fileHandleForWriting.close() }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("port ".count)) else {
            return print("tls-dial: the server child printed no port (\(line))")
        }
        try await measure(port: port, folder: folder, trust: trust, dials: dials)
    }

    /// `dials` dials of the server at `port`, trusting the CA in `folder` as `trust` says.
    private static func measure(port: Int, folder: URL, trust: String, dials: Int) async throws {
        let configuration: TLSConfiguration
        if trust == "system" {
            setenv("SSL_CERT_DIR", folder.appendingPathComponent("certs").path, 1)
            configuration = TLSConfiguration()
        } else {
            configuration = .trusting(caFile: folder.appendingPathComponent("ca.pem").path)
        }
        var cpu: [Duration] = []
        var wall: [Duration] = []
        for _ in 0..<dials {
            callgrindDumpMark("dial")
            let (cpuTime, wallTime) = try await dial(port: port, tls: configuration)
            callgrindDumpMark("closed")
            cpu.append(cpuTime)
            wall.append(wallTime)
        }
        report(trust: trust, cpu: cpu, wall: wall)
    }

    /// One dial: connect (TCP, TLS, upgrade), one echo; the connection's close is not counted.
    private static func dial(port: Int, tls: TLSConfiguration) async throws -> (cpu: Duration, wall: Duration) {
        let clock = ContinuousClock()
        let (startCPU, start) = (cpuTime(), clock.now)
        let connection = try await WebSocketClient.connect(
            host: "127.0.0.1",
            port: port,
            path: "/dial",
            limits: WebSocketLimits(),
            clock: clock,
            tls: tls
        )
        try await connection.send(.binary([1, 2, 3]))
        _ = try await connection.receive()
        let measured = (cpuTime() - startCPU, start.duration(to: clock.now))
        await connection.close()
        return measured
    }

    private static func report(trust: String, cpu: [Duration], wall: [Duration]) {
        let warmCPU = median(Array(cpu.dropFirst()))
        let warmWall = median(Array(wall.dropFirst()))
        let trusted = trust == "ca" ? "system store + test CA file" : "system store (test CA in SSL_CERT_DIR)"
        print("tls-dial (\(trusted)): first wss:// dial of the process: \(ms(cpu[0])) ms CPU, \(ms(wall[0])) ms wall")
        print(
            "tls-dial (\(trusted)): later dials (median of \(cpu.count - 1)): \(ms(warmCPU)) ms CPU, \(ms(warmWall)) ms wall"
        )
        print(
            "tls-dial (\(trusted)): the first dial's extra: +\(ms(cpu[0] - warmCPU)) ms CPU, +\(ms(wall[0] - warmWall)) ms wall"
        )
    }

    /// The child: makes a CA and a leaf for 127.0.0.1 in `folder` (`ca.pem`, and `certs/`, the system's folder
    /// with the CA added), prints its port, and serves `wss://` echo until its standard input closes.
    private static func serve(folder: URL) async {
        do {
            let now = Int64(Date().timeIntervalSince1970)
            let validity = CertificateAuthority.Validity.around(now: now, days: 1)
            let authority = try CertificateAuthority.make(commonName: "ftw-bench dial CA", validity: validity)
            let leaf = try authority.issue(commonName: "127.0.0.1", hosts: ["127.0.0.1"], validity: validity)
            let ca = folder.appendingPathComponent("ca.pem")
            try Data(authority.root.certificatePEM).write(to: ca)
            try hashedSystemFolder(adding: authority, at: folder.appendingPathComponent("certs"))
            let identity = TLSServerIdentity(
                certificateChainPEM: leaf.certificatePEM,
                privateKeyPEM: leaf.privateKeyPEM
            )
            let server = try WebSocketServer(
                port: 0,
                limits: WebSocketLimits(),
                clock: ContinuousClock(),
                tls: identity
            )
            FileHandle.standardOutput.write(Data("port \(server.port)\n".utf8))
            Thread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                exit(0)
            }
            .start()
            try await server.run { request in
                guard let connection = try? request.accept() else { return }
                while let message = try? await connection.receive() {
                    guard (try? await connection.send(message)) != nil else { return }
                }
            }
        } catch {
            print("tls-dial server: \(error)")
        }
    }

    /// A hashed folder at `copy` holding every entry of the system's certificate folder, and `authority` under its
    /// subject hash.
    private static func hashedSystemFolder(adding authority: CertificateAuthority, at copy: URL) throws {
        let system = String(cString: X509_get_default_cert_dir())
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: system) {
            try FileManager.default.createSymbolicLink(
                atPath: copy.appendingPathComponent(name).path,
                withDestinationPath: "\(system)/\(name)"
            )
        }
        try authority.writeHashed(into: copy.path)
    }

    private static func cpuTime() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let micros =
            (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000
            + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
        return .microseconds(micros)
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    private static func ms(_ duration: Duration) -> String {
        String(format: "%.2f", duration / .milliseconds(1))
    }
}
