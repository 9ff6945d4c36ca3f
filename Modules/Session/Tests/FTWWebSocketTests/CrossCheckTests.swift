import FTWSpawning
import FTWWebSocket
import Foundation
import Testing

/// Our client against Python's `websockets` server, and Python's client against our server.
///
/// Runs when `FTW_CROSSCHECK=1` (CI sets it and installs `websockets`); the peer script is
/// `Tools/crosscheck/websocket_peer.py` and gives up by itself after 30 seconds.
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["FTW_CROSSCHECK"] == "1"),
    .timeLimit(.minutes(1))
)
struct CrossCheckTests {
    @Test func ourClientExchangesEveryKindOfMessageWithPython() async throws {
        try await withPythonServer { port in
            let client = try await Self.connect(port: port, limits: WebSocketLimits(maxOutgoingFrameSize: 100))
            try await client.send(.text("Grüße ⚡️"))
            #expect(try await client.receive() == .text("Grüße ⚡️"))
            for length in [1, 125, 126, 65_535, 65_536] {
                let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 % 251) }
                try await client.send(.binary(payload))
                #expect(try await client.receive() == .binary(payload))
            }
            try await client.send(.text("fragment text"))
            #expect(try await client.receive() == .text("Hello world"))
            try await client.send(.text("fragment binary"))
            #expect(try await client.receive() == .binary([0, 1, 2, 3]))
            try await client.ping()
            try await client.send(.text("close 4409 493828"))
            let error = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(error?.code == .closed)
            #expect(client.closeCode == 4409)
            #expect(client.closeReason == "493828")
        }
    }

    @Test func ourCloseWithACustomCodeIsEchoedByPython() async throws {
        try await withPythonServer { port in
            let client = try await Self.connect(port: port, limits: WebSocketLimits())
            await client.close(code: 4000, reason: "bye")
            #expect(client.closeCode == 4000)
        }
    }

    /// What Python's client expects of our server: an echo at `/crosscheck` that closes 4409 "493828" when asked.
    static let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { request in
        guard request.path == "/crosscheck", let connection = try? request.accept() else { return }
        while let message = try? await connection.receive() {
            guard message != .text("close please") else {
                return await connection.close(code: 4409, reason: "493828")
            }
            try? await connection.send(message)
        }
    }

    @Test func pythonsClientExchangesEveryKindOfMessageWithOurServer() async throws {
        try await withServer(handler: Self.handler) { server in
            let run = try await PythonPeer.run(["client", "\(server.port)"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.hasPrefix("OK"), "\(run.output)")
        }
    }

    private static func connect(port: Int, limits: WebSocketLimits) async throws(WebSocketError) -> WebSocketConnection
    {
        try await WebSocketClient.connect(
            host: "127.0.0.1",
            port: port,
            path: "/crosscheck",
            limits: limits,
            clock: ContinuousClock()
        )
    }

    private func withPythonServer(_ body: (Int) async throws -> Void) async throws {
        let server = try PythonPeer.start(["server"])
        defer { server.stop() }
        let port = try #require(await server.port())
        try await body(port)
    }
}

/// `websocket_peer.py` as a child process.
final class PythonPeer: Sendable {
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Tools/crosscheck/websocket_peer.py")

    private let process: ChildProcess
    private let stdin = Pipe()
    private let stdout = Pipe()

    private init(_ arguments: [String]) {
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path] + arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
    }

    /// Starts the peer, which runs until ``stop()``.
    static func start(_ arguments: [String]) throws -> PythonPeer {
        let peer = PythonPeer(arguments)
        try peer.process.run()
        return peer
    }

    /// Runs the peer to its end and returns its exit status and everything it printed.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let peer = PythonPeer(arguments)
        let exited = AsyncStream<Void>.makeStream()
        peer.process.terminationHandler = { _ in exited.continuation.finish() }
        try peer.process.run()
        for await _ in exited.stream {}
        let output = peer.stdout.fileHandleForReading.readDataToEndOfFile()
        return (peer.process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// The port from the server's first line, "PORT <n>"; nil if it printed something else or ended.
    func port() async -> Int? {
        let handle = stdout.fileHandleForReading
        let line = await withCheckedContinuation { continuation in
            Thread {
                var bytes = Data()
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let chunk = handle.availableData
                    guard !chunk.isEmpty else { break }
                    bytes += chunk
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }.start()
        }
        guard line.hasPrefix("PORT ") else { return nil }
        return Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Ends the peer by closing its stdin, which the server waits on.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
