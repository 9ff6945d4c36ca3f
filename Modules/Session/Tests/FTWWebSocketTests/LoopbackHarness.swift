import FTWSocketLoop
import FTWWebSocket

/// The default limits with a minute for the opening handshake on a real clock, not ten seconds: a full test run
/// keeps two cores busy with a thousand tests, and a loopback handshake that waits its turn is no timeout. A test of
/// the timeout itself passes its own limits and a manual clock.
let patientLimits = WebSocketLimits(handshakeTimeout: .seconds(60))

/// Runs a real server on 127.0.0.1 (ephemeral port, `wss://` with `tls`) around `body`, and closes it afterwards.
/// The server has an event loop of its own, as a box has: on the process's shared loop, another suite's burst held
/// a raw client's answer past its 60 s patience in a full run.
func withServer<Result: Sendable>(
    limits: WebSocketLimits = patientLimits,
    clock: any Clock<Duration> = ContinuousClock(),
    tls: TLSServerIdentity? = nil,
    handler: @escaping @Sendable (WebSocketUpgradeRequest) async -> Void,
    body: (WebSocketServer) async throws -> Result
) async throws -> Result {
    let loop = try EventLoop(name: "test.server")
    defer { loop.shutdown() }
    let server = try WebSocketServer(port: 0, limits: limits, clock: clock, tls: tls, loop: loop)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run(handler: handler) }
        do {
            let result = try await body(server)
            await server.close()
            try await group.waitForAll()
            return result
        } catch {
            await server.close()
            throw error
        }
    }
}

/// A handler that accepts every request and echoes each message until the connection ends.
@Sendable func echoHandler(_ request: WebSocketUpgradeRequest) async {
    guard let connection = try? request.accept() else { return }
    while let message = try? await connection.receive() {
        do { try await connection.send(message) } catch { return }
    }
}

/// A handler that accepts, then posts how its first `receive()` failed (nil if it got a message).
func reportFirstReceive(to mailbox: Mailbox<WebSocketError?>) -> @Sendable (WebSocketUpgradeRequest) async -> Void {
    { request in
        guard let connection = try? request.accept() else { return }
        mailbox.post(await caught { () async throws(WebSocketError) in try await connection.receive() })
    }
}

/// Connects a client to `server` with a real clock.
func connect(
    to server: WebSocketServer,
    path: String = "/echo",
    limits: WebSocketLimits = patientLimits
) async throws(WebSocketError) -> WebSocketConnection {
    try await connect(toPort: server.port, path: path, limits: limits)
}

/// Connects a client to 127.0.0.1:`port` with a real clock.
func connect(
    toPort port: Int,
    path: String = "/echo",
    limits: WebSocketLimits = patientLimits
) async throws(WebSocketError) -> WebSocketConnection {
    try await WebSocketClient.connect(
        host: "127.0.0.1",
        port: port,
        path: path,
        limits: limits,
        clock: ContinuousClock()
    )
}

/// The error `body` throws, or nil; for asserting on the fields of a typed error.
func caught<Value>(_ body: () async throws(WebSocketError) -> Value) async -> WebSocketError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// A one-slot mailbox a handler posts to and a test waits on.
struct Mailbox<Value: Sendable>: Sendable {
    private let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Value.self) }

    func post(_ value: Value) { continuation.yield(value) }

    /// The next posted value.
    func next() async -> Value? {
        for await value in stream { return value }
        return nil
    }
}
