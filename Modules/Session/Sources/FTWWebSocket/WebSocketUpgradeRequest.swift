import Synchronization

/// A client's valid Upgrade request, waiting for the server's handler to accept or refuse it.
///
/// The handler routes on ``path`` and ``headers`` and answers once: ``accept()`` sends 101 and returns the
/// connection, ``refuse(status:reason:)`` sends an HTTP error and closes. A request left unanswered when the handler
/// returns is refused with 503; an accepted connection still open then is closed with 1000.
public final class WebSocketUpgradeRequest: Sendable {
    private enum State {
        /// No answer yet. Moves to `accepted` or `refused`.
        case pending(leftover: [UInt8])
        /// Answered with 101. Final.
        case accepted(WebSocketConnection)
        /// Answered with an HTTP error. Final.
        case refused
    }

    /// The request's path and headers.
    public let head: WebSocketRequestHead
    private let channel: SocketChannel
    private let limits: WebSocketLimits
    private let clock: any Clock<Duration>
    private let state: Mutex<State>

    init(
        head: WebSocketRequestHead,
        channel: SocketChannel,
        leftover: [UInt8],
        limits: WebSocketLimits,
        clock: any Clock<Duration>
    ) {
        self.head = head
        self.channel = channel
        self.limits = limits
        self.clock = clock
        state = Mutex(.pending(leftover: leftover))
    }

    /// The request target, e.g. `/r/493828/<handle>/app`.
    public var path: String { head.path }

    /// The request's header fields, names lowercased.
    public var headers: [String: String] { head.headers }

    /// Answers 101 Switching Protocols and returns the open connection.
    ///
    /// - Throws: ``WebSocketError/Code/handshakeFailed`` if the request was already answered.
    public func accept() throws(WebSocketError) -> WebSocketConnection {
        let connection = WebSocketConnection(channel: channel, role: .server, limits: limits, clock: clock)
        let leftover = state.withLock { state -> [UInt8]? in
            guard case .pending(let leftover) = state else { return nil }
            state = .accepted(connection)
            return leftover
        }
        guard let leftover else { throw WebSocketError(.handshakeFailed, "the request was already answered") }
        connection.start(leftover: leftover, preamble: WebSocketHandshake.makeAcceptResponse(key: head.key))
        return connection
    }

    /// Answers with an HTTP error status and closes the TCP connection; does nothing if already answered.
    ///
    /// - Parameters:
    ///   - status: The HTTP status, 200–599 (others become 500).
    ///   - reason: The reason phrase (ASCII; line breaks are dropped).
    public func refuse(status: Int, reason: String) async {
        let isPending = state.withLock { state -> Bool in
            guard case .pending = state else { return false }
            state = .refused
            return true
        }
        guard isPending else { return }
        let response = WebSocketHandshake.makeRefusal(status: status, reason: reason)
        await channel.sendRefusal(response, drainFor: limits.closeTimeout, clock: clock)
    }

    /// Ends the request after its handler returned: refuse it if unanswered, close its connection if accepted.
    func finish(code: UInt16, reason: String) async {
        switch state.withLock({ $0 }) {
        case .pending: await refuse(status: 503, reason: "Service Unavailable")
        case .accepted(let connection): await connection.close(code: code, reason: reason)
        case .refused: return
        }
    }

    /// Drops the request's TCP connection at once, answered or not (the server's task was cancelled).
    func abort() {
        switch state.withLock({ $0 }) {
        case .pending, .refused: channel.abort(SocketChannel.closedError)
        case .accepted(let connection): connection.abort()
        }
    }
}
