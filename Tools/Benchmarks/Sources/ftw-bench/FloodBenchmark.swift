import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWCrypto
import FTWSession
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSpawning
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ftw-bench flood [idle|ping|api|hist]`: the peak resident memory of a live session that a hostile relay on
/// 127.0.0.1 floods, against the same session reading quietly (`idle`, the baseline).
///
/// Each kind runs in a child process of its own, because peak resident memory is a process's, and its hostile relay
/// in another (so the relay's memory is not counted), which sends as fast as the socket takes (`ping`: 2,000 pings at once after each `hello_ok`, ten
/// connections; `api`: ten reads each answered with 700 chunks of 12 KiB, past the 8 MiB cap; `hist`: ten history
/// reads each answered with 5,000 tiles). The bound the session must stay under is 64 MB.
enum FloodBenchmark {
    private static let kinds = ["idle", "ping", "api", "hist"]
    private static let boundMB = 64
    private static let rounds = 10
    private static let boxKey = [UInt8](repeating: 0x11, count: 32)
    private static let appKey = [UInt8](repeating: 0x22, count: 32)
    private static let plan = Plan(rev: 1, uptimeMs: 1_000, slots: [], stale: false)

    static func run(arguments: [String]) async {
        switch arguments.first {
        case nil:
            for kind in kinds { runChild(["flood", kind], waiting: true) }
        case "relay" where arguments.count == 2 && kinds.contains(arguments[1]):
            await serve(arguments[1])
        case let kind? where kinds.contains(kind):
            await flood(kind)
        default:
            print("usage: ftw-bench flood [\(kinds.joined(separator: "|"))]")
        }
    }

    /// Starts this program again with `arguments`; waits for it, or hands back its output to read a port from.
    @discardableResult
    private static func runChild(_ arguments: [String], waiting: Bool) -> (ChildProcess, Pipe)? {
        let child = ChildProcess()
        child.executableURL = Bundle.main.executableURL ?? URL(filePath: CommandLine.arguments[0])
        child.arguments = arguments
        let output = Pipe()
        if !waiting { child.standardOutput = output }
        do {
            try child.run()
        } catch {
            print("flood: could not start a child: \(error)")
            return nil
        }
        guard waiting else { return (child, output) }
        child.waitUntilExit()
        return nil
    }

    /// The hostile relay of `kind` alone, in its own process so its memory is not the session's: prints its port
    /// and serves until killed.
    private static func serve(_ kind: String) async {
        do {
            let relay = try HostileRelay(
                staticPrivateKey: boxKey,
                pings: kind == "ping" ? 2_000 : 0,
                clock: ContinuousClock()
            ) { message in replies(to: message, kind: kind) }
            FileHandle.standardOutput.write(Data("port \(relay.port)\n".utf8))
            try await relay.run()
        } catch {
            print("flood relay \(kind): \(error)")
        }
    }

    private static func flood(_ kind: String) async {
        guard let (relay, output) = runChild(["flood", "relay", kind], waiting: false) else { return }
        defer {
            relay.terminate()
            relay.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("port "), let port = Int(line.dropFirst(5).prefix { $0.isNumber }) else {
            print("flood \(kind): the relay said \(line)")
            return
        }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let session = LiveSession(
                dialer: RelayDialer(
                    host: "127.0.0.1",
                    port: port,
                    rendezvousSecret: [UInt8](repeating: 7, count: 32),
                    clock: clock,
                    wallClock: SystemWallClock()
                ),
                identity: SessionIdentity(
                    appStaticPrivateKey: appKey,
                    boxStaticPublicKey: try X25519.publicKey(privateKey: boxKey),
                    payload: []
                ),
                configuration: SessionConfiguration(build: "bench"),
                clock: clock,
                wallClock: SystemWallClock(),
                random: SystemRandomSource(),
                log: DiscardingLogSink(),
                events: EventBus<SessionEvent>()
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await session.run() }
                await session.setPhase(.active)
                try await work(kind, session: session)
                await session.setPhase(.background)
                group.cancelAll()
            }
            let traffic = await session.traffic
            print(
                "flood \(kind): peak RSS \(peakResidentMB()) MB (bound \(boundMB) MB);"
                    + " \(traffic.receivedMessages) messages, \(traffic.receivedBytes / 1_048_576) MiB received;"
                    + " \(start.duration(to: clock.now))"
            )
        } catch {
            print("flood \(kind): \(error)")
        }
    }

    private static func work(_ kind: String, session: LiveSession) async throws {
        switch kind {
        case "ping":
            let closes = session.events.subscribe()
            var count = 0
            for await event in closes {
                if case .connection(.closed) = event { count += 1 }
                if count == rounds { break }
            }
        case "api":
            for _ in 0..<rounds {
                _ = try? await session.read(.api(APIRequest(method: "GET", path: "/api/loadpoints")), order: .rest)
            }
        case "hist":
            let nowMs = SystemWallClock().nowMs
            let query = HistQuery(series: ["grid_w"], res: .fiveMinutes, fromMs: nowMs - 172_800_000, toMs: nowMs)
            for _ in 0..<rounds { _ = try? await session.read(.history(query), order: .rest) }
        default:
            for _ in 0..<rounds { _ = try? await session.read(.plan, order: .plan) }
        }
    }

    private static func replies(to message: Message, kind: String) -> [Message] {
        switch (kind, message) {
        case (_, .planGet):
            return [.plan(plan)]
        case ("api", .apiReq):
            let chunk = [UInt8](repeating: 0x20, count: 12_288)
            return [.apiHead(APIHead(status: 200, headers: ["Content-Type": "application/json"]))]
                + (0..<700).map { .apiChunk(APIChunk(seq: UInt32($0), data: chunk)) }
        case ("hist", .histQuery(let query)):
            let tile = HistChunk.filler(for: query, index: 0, bytes: 576)
            return Array(repeating: .histChunk(tile), count: 5_000)
        default:
            return []
        }
    }

    /// The most resident memory this process has held, in MB (`ru_maxrss` is in KiB on Linux, bytes on Darwin).
    private static func peakResidentMB() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
        _ = getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1_048_576
        #else
        _ = getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) / 1_024
        #endif
    }
}
