import FTWClockSeam
import FTWDemoBox
import FTWTLSCertificates
import FTWWebSocket
import Foundation

/// `ftw-bench tls`: what `wss://` adds to opening a relay connection on loopback.
///
/// A connect to a `wss://` server (TCP, the TLS handshake with chain and host-name verification, then the
/// WebSocket upgrade) against a connect to a plain `ws://` server (TCP and the upgrade alone), in one run with the
/// two interleaved round by round so both see the same machine; printed as medians and their ratio. The client's
/// trust (the system store and the extra CA) is loaded at the first `wss://` dial and reused by later ones, as a
/// dialer's redials see it; that first dial is printed on its own. Then ``SessionLatencyBenchmark``: the whole
/// session, inactive to live, through 50 ms each way.
enum TLSBenchmark {
    private static let rounds = 300
    private static let warmUp = 20

    static func run() async {
        do {
            let now = Int64(Date().timeIntervalSince1970)
            let validity = CertificateAuthority.Validity.around(now: now, days: 1)
            let authority = try CertificateAuthority.make(commonName: "ftw-bench CA", validity: validity)
            let leaf = try authority.issue(commonName: "127.0.0.1", hosts: ["127.0.0.1"], validity: validity)
            let identity = TLSServerIdentity(
                certificateChainPEM: leaf.certificatePEM,
                privateKeyPEM: leaf.privateKeyPEM
            )
            let trust = TLSConfiguration(additionalTrustRoots: [.pemBytes(authority.root.certificatePEM)])
            let plain = try WebSocketServer(port: 0, limits: WebSocketLimits(), clock: ContinuousClock())
            let secure = try WebSocketServer(
                port: 0,
                limits: WebSocketLimits(),
                clock: ContinuousClock(),
                tls: identity
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                for server in [plain, secure] { group.addTask { try await server.run(handler: echo) } }
                var baseline: [Duration] = []
                var withTLS: [Duration] = []
                let first = try await measure(port: secure.port, tls: trust)
                for round in 0..<(warmUp + rounds) {
                    let ws = try await measure(port: plain.port, tls: nil)
                    let wss = try await measure(port: secure.port, tls: trust)
                    guard round >= warmUp else { continue }
                    baseline.append(ws)
                    withTLS.append(wss)
                }
                await plain.close()
                await secure.close()
                try await group.waitForAll()
                report(first: first, baseline: baseline, withTLS: withTLS)
            }
            try await measureSessions()
        } catch {
            print("tls: \(error)")
        }
    }

    /// Inactive to live through a slow link, with and without TLS, against a demo box whose `--tls` files are made
    /// in a temporary folder.
    private static func measureSessions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tls = try DemoBoxTLS.loadOrCreate(folder: folder.path, nowSeconds: SystemWallClock().nowMs / 1000)
        let (ws, wss) = try await SessionLatencyBenchmark.run(tls: tls)
        let oneWay = milliseconds(SessionLatencyBenchmark.oneWay)
        print("tls: inactive → live at \(oneWay) ms one way, ws://:  \(milliseconds(ws)) ms (median)")
        print("tls: inactive → live at \(oneWay) ms one way, wss://: \(milliseconds(wss)) ms (median)")
        let roundTrips = (wss - ws) / (SessionLatencyBenchmark.oneWay * 2)
        print("tls: wss - ws: \(milliseconds(wss - ws)) ms = \(String(format: "%.2f", roundTrips)) round trips")
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration / .milliseconds(1))
    }

    /// The time from dialling until the connection is open and one message has echoed back.
    private static func measure(port: Int, tls: TLSConfiguration?) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let connection = try await WebSocketClient.connect(
            host: "127.0.0.1",
            port: port,
            path: "/bench",
            limits: WebSocketLimits(),
            clock: clock,
            tls: tls
        )
        try await connection.send(.binary([1, 2, 3]))
        _ = try await connection.receive()
        let elapsed = start.duration(to: clock.now)
        await connection.close()
        return elapsed
    }

    @Sendable private static func echo(_ request: WebSocketUpgradeRequest) async {
        guard let connection = try? request.accept() else { return }
        while let message = try? await connection.receive() {
            guard (try? await connection.send(message)) != nil else { return }
        }
    }

    private static func report(first: Duration, baseline: [Duration], withTLS: [Duration]) {
        let ws = median(baseline)
        let wss = median(withTLS)
        print("tls: first wss:// dial of the process (loads the system trust store): \(microseconds(first)) µs")
        print("tls: ws://  connect + upgrade + one echo (baseline): \(microseconds(ws)) µs (median of \(rounds))")
        print("tls: wss:// connect + TLS + upgrade + one echo:      \(microseconds(wss)) µs (median of \(rounds))")
        print(
            "tls: TLS handshake's cost: \(microseconds(wss - ws)) µs; ratio wss / ws: \(String(format: "%.2f", wss / ws))"
        )
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    private static func microseconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration / .microseconds(1))
    }
}
