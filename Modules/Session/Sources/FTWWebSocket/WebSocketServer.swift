public import FTWSocketLoop
import Synchronization

/// A WebSocket server on 127.0.0.1 that validates each client's handshake strictly and hands it to a handler.
///
/// Made for the local relay and demo box: ``init(port:limits:clock:tls:loop:)`` binds (so ``port`` is known at once),
/// ``run(handler:)`` serves until ``close()`` or cancellation, and each connection's handler runs as a child task.
/// Invalid handshakes are answered (400, 405 or 426) without reaching the handler.
///
/// ## Concurrency
/// No thread per connection: the listening socket and every connection live on one event loop (the process's shared
/// loop unless given one), which accepts and reads when the kernel says so. Each handshake is a task awaiting that
/// loop under ``WebSocketLimits/handshakeTimeout``; handlers run in a task group inside ``run(handler:)``. So a
/// thousand idle connections cost descriptors and suspended tasks, not threads. The sockets still in handshake and
/// the requests being handled are the server's only state, behind a `Mutex`, so ``close()`` can reach every one.
public final class WebSocketServer: Sendable {
    private struct State {
        var isClosed = false
        var handshaking: [ObjectIdentifier: SocketChannel] = [:]
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
    ///   - loop: The event loop every socket of the server lives on; nil for the process's shared loop.
    /// - Throws: ``WebSocketError/Code/io`` when the port cannot be bound, ``WebSocketError/Code/tlsConfiguration``
    ///   when the identity's chain or key is unusable.
    public init(
        port: Int = 0,
        limits: WebSocketLimits,
        clock: any Clock<Duration>,
        tls: TLSServerIdentity? = nil,
        loop: EventLoop? = nil
    ) throws(WebSocketError) {
        security = try StreamSecurity.server(tls)
        listener = try TCPListener(port: port, loop: try EventLoop.forSockets(loop))
        self.limits = limits
        self.clock = clock
    }

    deinit { listener.stopSoon() }

    /// Accepts connections until ``close()`` or cancellation, running `handler` for each valid Upgrade request.
    ///
    /// Returns once accepting has stopped and every handler has returned. On cancellation, open connections are
    /// dropped without a closing handshake; use ``close()`` for a graceful end.
    /// - Throws: ``WebSocketError/Code/io`` if the listening socket fails.
    public func run(handler: @escaping @Sendable (WebSocketUpgradeRequest) async -> Void) async throws(WebSocketError) {
        let events = listener.start()
        let failure = await withTaskCancellationHandler {
            await withDiscardingTaskGroup(returning: WebSocketError?.self) { group in
                var backoff = Duration.zero
                for await event in events {
                    switch event {
                    case .accepted(let descriptor):
                        backoff = .zero
                        group.addTask { await self.serve(descriptor, handler: handler) }
                    case .exhausted:
                        // Out of descriptors: the connection stays queued in the kernel; wait, then try again.
                        backoff = min(max(backoff * 2, Self.firstBackoff), Self.maxBackoff)
                        try? await clock.sleep(for: backoff)
                        listener.resume()
                    case .failed(let error):
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

    /// The first wait after an accept failed for want of descriptors or memory; it doubles up to ``maxBackoff``.
    static let firstBackoff = Duration.milliseconds(10)
    /// The longest wait between two accepts while resources are exhausted.
    static let maxBackoff = Duration.seconds(1)

    /// Stops listening, closes every connection with 1001 (going away), and answers pending requests with 503.
    ///
    /// Returns when every connection is closed (each within ``WebSocketLimits/closeTimeout``) and the port is shut:
    /// a client that connects afterwards is refused.
    public func close() async {
        await listener.stop()
        let (channels, requests) = markClosed()
        for channel in channels { channel.abort(SocketChannel.closedError) }
        await withDiscardingTaskGroup { group in
            for request in requests {
                group.addTask { await request.finish(code: WebSocketCloseCode.goingAway, reason: "server closing") }
            }
        }
    }

    private func serve(_ descriptor: Int32, handler: @Sendable (WebSocketUpgradeRequest) async -> Void) async {
        let channel = SocketChannel(
            descriptor: descriptor,
            loop: listener.loop,
            peer: "a client on 127.0.0.1",
            stall: WriteStall(clock: clock, timeout: limits.writeTimeout)
        )
        let channelID = ObjectIdentifier(channel)
        guard register(channel, id: channelID) else { return channel.abort(SocketChannel.closedError) }
        let result = await Deadline.run(
            timeout: limits.handshakeTimeout,
            clock: clock,
            expire: { channel.abort($0) },
            abandon: { _ in channel.abort(SocketChannel.closedError) },
            work: { [limits, security, port, clock] in
                await Self.readRequest(channel, security: security, port: port, limits: limits, clock: clock)
            }
        )
        guard case .success(let received) = result else {
            _ = state.withLock { $0.handshaking.removeValue(forKey: channelID) }
            return
        }
        let request = WebSocketUpgradeRequest(
            head: received.head,
            channel: channel,
            leftover: received.leftover,
            limits: limits,
            clock: clock
        )
        let requestID = ObjectIdentifier(request)
        let isServing = state.withLock { state in
            state.handshaking[channelID] = nil
            guard !state.isClosed else { return false }
            state.requests[requestID] = request
            return true
        }
        if isServing { await handler(request) }
        await request.finish(code: WebSocketCloseCode.normalClosure, reason: "")
        _ = state.withLock { $0.requests.removeValue(forKey: requestID) }
    }

    /// Runs the TLS handshake if any, then reads and validates a request, answering an invalid one itself (a client
    /// whose TLS handshake failed gets only the alert).
    private static func readRequest(
        _ channel: SocketChannel,
        security: StreamSecurity,
        port: Int,
        limits: WebSocketLimits,
        clock: any Clock<Duration>
    ) async -> Result<(head: WebSocketRequestHead, leftover: [UInt8]), WebSocketError> {
        do throws(WebSocketError) {
            try await security.secure(channel, host: "a client on 127.0.0.1", port: port)
        } catch {
            channel.abort(error)
            return .failure(error)
        }
        do throws(WebSocketError) {
            let (bytes, leftover) = try await channel.readHead(limit: limits.maxHandshakeHeaderSize)
            return .success((try WebSocketHandshake.validateRequest(bytes), leftover))
        } catch {
            let status = error.httpStatus ?? 400
            await channel.sendRefusal(
                WebSocketHandshake.makeRefusal(status: status, reason: "Bad Request"),
                drainFor: limits.closeTimeout,
                clock: clock
            )
            return .failure(error)
        }
    }

    private func register(_ channel: SocketChannel, id: ObjectIdentifier) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.handshaking[id] = channel
            return true
        }
    }

    private func markClosed() -> ([SocketChannel], [WebSocketUpgradeRequest]) {
        state.withLock { state in
            state.isClosed = true
            return (Array(state.handshaking.values), Array(state.requests.values))
        }
    }

    private func abortEverything() {
        listener.stopSoon()
        let (channels, requests) = markClosed()
        for channel in channels { channel.abort(SocketChannel.closedError) }
        for request in requests { request.abort() }
    }
}
