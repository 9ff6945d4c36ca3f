import Synchronization

/// A WebSocket server on 127.0.0.1 that validates each client's handshake strictly and hands it to a handler.
///
/// Made for the local relay and demo box: ``init(port:limits:clock:tls:)`` binds (so ``port`` is known at once),
/// ``run(handler:)`` serves until ``close()`` or cancellation, and each connection's handler runs as a child task.
/// Invalid handshakes are answered (400, 405 or 426) without reaching the handler.
///
/// ## Concurrency
/// One thread accepts; each handshake is read on a thread of its own under ``WebSocketLimits/handshakeTimeout``;
/// handlers run in a task group inside ``run(handler:)``. The sockets still in handshake and the requests being
/// handled are the server's only state, behind a `Mutex`, so ``close()`` can reach every one of them.
public final class WebSocketServer: Sendable {
    private struct State {
        var isClosed = false
        var handshaking: [ObjectIdentifier: TCPSocket] = [:]
        var requests: [ObjectIdentifier: WebSocketUpgradeRequest] = [:]
    }

    /// The bound port (the ephemeral one when 0 was asked for).
    public var port: Int { listener.port }
    private let listener: TCPListener
    private let limits: WebSocketLimits
    private let clock: any Clock<Duration>
    private let security: StreamSecurity
    private let state = Mutex(State())

    /// Binds 127.0.0.1:`port` and listens; nothing is accepted until ``run(handler:)``.
    ///
    /// - Parameters:
    ///   - port: The port, or 0 for an ephemeral one.
    ///   - limits: The bounds for every connection; ``WebSocketLimits/handshakeTimeout`` covers TLS too.
    ///   - clock: The clock the handshake and closing timeouts run on.
    ///   - tls: The certificate chain and key to serve `wss://` with; nil serves plain `ws://`.
    /// - Throws: ``WebSocketError/Code/io`` when the port cannot be bound, ``WebSocketError/Code/tlsConfiguration``
    ///   when the identity's chain or key is unusable.
    public init(
        port: Int = 0,
        limits: WebSocketLimits,
        clock: any Clock<Duration>,
        tls: TLSServerIdentity? = nil
    ) throws(WebSocketError) {
        security = try StreamSecurity.server(tls)
        listener = try TCPListener(port: port)
        self.limits = limits
        self.clock = clock
    }

    deinit { listener.stop() }

    /// Accepts connections until ``close()`` or cancellation, running `handler` for each valid Upgrade request.
    ///
    /// Returns once accepting has stopped and every handler has returned. On cancellation, open connections are
    /// dropped without a closing handshake; use ``close()`` for a graceful end.
    /// - Throws: ``WebSocketError/Code/io`` if the listening socket fails.
    public func run(handler: @escaping @Sendable (WebSocketUpgradeRequest) async -> Void) async throws(WebSocketError) {
        let accepted = listener.start(writeTimeout: limits.writeTimeout)
        let failure = await withTaskCancellationHandler {
            await withDiscardingTaskGroup(returning: WebSocketError?.self) { group in
                for await next in accepted {
                    switch next {
                    case .success(let socket):
                        group.addTask { await self.serve(socket, handler: handler) }
                    case .failure(let error):
                        group.cancelAll()
                        return error
                    }
                }
                return nil
            }
        } onCancel: {
            abortEverything()
        }
        if let failure { throw failure }
    }

    /// Stops listening, closes every connection with 1001 (going away), and answers pending requests with 503.
    ///
    /// Returns when every connection is closed (each within ``WebSocketLimits/closeTimeout``).
    public func close() async {
        let (sockets, requests) = stopAccepting()
        for socket in sockets { socket.interrupt() }
        await withDiscardingTaskGroup { group in
            for request in requests {
                group.addTask { await request.finish(code: WebSocketCloseCode.goingAway, reason: "server closing") }
            }
        }
    }

    private func serve(_ socket: TCPSocket, handler: @Sendable (WebSocketUpgradeRequest) async -> Void) async {
        let socketID = ObjectIdentifier(socket)
        guard register(socket, id: socketID) else { return socket.dispose() }
        let result = await BlockingCall.run(
            timeout: limits.handshakeTimeout,
            clock: clock,
            interrupt: { socket.interrupt() },
            abandon: { _ in socket.dispose() },
            work: { [limits, security, port] in Self.readRequest(socket, security: security, port: port, limits: limits)
            }
        )
        guard case .success(let received) = result else {
            _ = state.withLock { $0.handshaking.removeValue(forKey: socketID) }
            return
        }
        let request = WebSocketUpgradeRequest(
            head: received.head,
            socket: received.stream,
            leftover: received.leftover,
            limits: limits,
            clock: clock
        )
        let requestID = ObjectIdentifier(request)
        let isServing = state.withLock { state in
            state.handshaking[socketID] = nil
            guard !state.isClosed else { return false }
            state.requests[requestID] = request
            return true
        }
        if isServing { await handler(request) }
        await request.finish(code: WebSocketCloseCode.normalClosure, reason: "")
        _ = state.withLock { $0.requests.removeValue(forKey: requestID) }
    }

    /// Runs the TLS handshake if any, then reads and validates a request on the handshake thread, answering an
    /// invalid one itself (a client whose TLS handshake failed gets only the alert).
    private static func readRequest(
        _ socket: TCPSocket,
        security: StreamSecurity,
        port: Int,
        limits: WebSocketLimits
    ) -> Result<(head: WebSocketRequestHead, leftover: [UInt8], stream: ByteStream), WebSocketError> {
        let stream: ByteStream
        do throws(WebSocketError) {
            stream = try security.open(socket, host: "a client on 127.0.0.1", port: port)
        } catch {
            socket.dispose()
            return .failure(error)
        }
        do throws(WebSocketError) {
            let (bytes, leftover) = try stream.readHead(limit: limits.maxHandshakeHeaderSize)
            return .success((try WebSocketHandshake.validateRequest(bytes), leftover, stream))
        } catch {
            let status = error.httpStatus ?? 400
            stream.sendRefusal(
                WebSocketHandshake.makeRefusal(status: status, reason: "Bad Request"),
                drainFor: limits.closeTimeout
            )
            return .failure(error)
        }
    }

    private func register(_ socket: TCPSocket, id: ObjectIdentifier) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.handshaking[id] = socket
            return true
        }
    }

    private func stopAccepting() -> ([TCPSocket], [WebSocketUpgradeRequest]) {
        listener.stop()
        return state.withLock { state in
            state.isClosed = true
            return (Array(state.handshaking.values), Array(state.requests.values))
        }
    }

    private func abortEverything() {
        let (sockets, requests) = stopAccepting()
        for socket in sockets { socket.interrupt() }
        for request in requests { request.abort() }
    }
}
