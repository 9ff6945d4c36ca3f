import FTWBus
public import FTWClockSeam
public import FTWNoise
public import FTWSessionInterface
public import FTWSocketLoop
public import FTWWebSocket

/// Opens carriers to the relay: a WebSocket (`ws://`, or `wss://` with a `TLSConfiguration`) to `<host>:<port>` and
/// this hour's room, as ``RelayRendezvous`` names it (the rendezvous also learns from the relay's 4409 and 4410
/// closes). When to redial after such a close is the session's decision.
///
/// ## Concurrency
/// A `Sendable` class; its mutable part is the rendezvous's adopted offset. Its sockets live on ``loop``: run the
/// session (and the models it feeds) under `withTaskExecutorPreference(loop)` and a live frame goes from the socket
/// to the last model on that loop's thread.
public final class RelayDialer: CarrierDialer {
    private let host: String
    private let port: Int
    private let clock: any Clock<Duration>
    private let tls: TLSConfiguration?
    private let resolver: HostResolver

    /// The event loop the carriers' sockets live on; nil for the process's shared loop.
    public let loop: EventLoop?

    /// This hour's room, shared with the carriers that report the relay's closes.
    public let rendezvous: RelayRendezvous

    /// Makes a dialer for one box's rooms.
    ///
    /// - Parameters:
    ///   - host: The relay's host (127.0.0.1 for the demo relay).
    ///   - port: Its port.
    ///   - rendezvousSecret: The QR code's 32-byte rendezvous secret.
    ///   - clock: The clock the WebSocket's handshake and closing deadlines run on.
    ///   - wallClock: The wall clock that names the epoch.
    ///   - tls: The trust for `wss://` (the system store, plus `--ca` roots); nil dials plain `ws://`.
    ///   - loop: The event loop the sockets live on (the client's executor); nil for the process's shared loop.
    public convenience init(
        host: String,
        port: Int,
        rendezvousSecret: [UInt8],
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        tls: TLSConfiguration? = nil,
        loop: EventLoop? = nil
    ) {
        self.init(
            host: host,
            port: port,
            rendezvousSecret: rendezvousSecret,
            clock: clock,
            wallClock: wallClock,
            tls: tls,
            schedule: .production,
            loop: loop
        )
    }

    /// Makes a dialer for one box's rooms on a relay whose epochs and spread are `schedule`.
    ///
    /// - Parameters:
    ///   - host: The relay's host (127.0.0.1 for the demo relay).
    ///   - port: Its port.
    ///   - rendezvousSecret: The QR code's 32-byte rendezvous secret.
    ///   - clock: The clock the WebSocket's handshake and closing deadlines run on.
    ///   - wallClock: The wall clock that names the epoch.
    ///   - tls: The trust for `wss://`; nil dials plain `ws://`.
    ///   - schedule: The relay's epochs and the spread of its turn: `RelaySchedule.production`, unless a test's
    ///     demo relay shortens them (`ftw-demobox --epoch-ms`, `--rotation-spread`).
    ///   - loop: The event loop the sockets live on (the client's executor); nil for the process's shared loop.
    public convenience init(
        host: String,
        port: Int,
        rendezvousSecret: [UInt8],
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        tls: TLSConfiguration?,
        schedule: RelaySchedule,
        loop: EventLoop? = nil
    ) {
        self.init(
            host: host,
            port: port,
            rendezvousSecret: rendezvousSecret,
            clock: clock,
            wallClock: wallClock,
            tls: tls,
            schedule: schedule,
            loop: loop,
            resolver: .system
        )
    }

    /// Makes a dialer whose relay name `resolver` looks up: a test's name whose addresses it chooses on loopback (one
    /// black-holed, one the relay's).
    package init(
        host: String,
        port: Int,
        rendezvousSecret: [UInt8],
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        tls: TLSConfiguration?,
        schedule: RelaySchedule,
        loop: EventLoop?,
        resolver: HostResolver
    ) {
        self.resolver = resolver
        self.host = host
        self.port = port
        self.clock = clock
        self.tls = tls
        self.loop = loop
        rendezvous = RelayRendezvous(secret: rendezvousSecret, wallClock: wallClock, schedule: schedule)
    }

    /// The epoch the next dial joins.
    public var epoch: Int64 { rendezvous.epoch }

    /// The path the next dial asks for.
    public var path: String { rendezvous.path }

    /// When the box comes into the room the next dial joins, while the relay has yet to move it there at the hour's
    /// turn (``RelayRendezvous/boxArrival``).
    public var boxArrival: BoxArrival? { rendezvous.boxArrival }

    /// Connects a WebSocket to this hour's room.
    ///
    /// - Throws: `SessionError` with `.cancelled` when the dialling task is cancelled, `.relayUnreachable` when
    ///   nothing listens there (connection refused, no route, an unknown name), `.slowLink` when the connect or the
    ///   upgrade passed its deadline, `.relayNotTrusted` when the relay's TLS failed in a way no redial changes
    ///   (`WebSocketError.isPermanentTLSFailure`: its certificate did not verify, it speaks no TLS version we accept,
    ///   plain text on a `wss://` port), `.dialFailed` otherwise (the relay refused the upgrade).
    public func dial() async throws(SessionError) -> any Carrier {
        let connection: WebSocketConnection
        do {
            connection = try await WebSocketClient.connect(
                host: host,
                port: port,
                path: path,
                limits: WebSocketLimits(),
                clock: clock,
                tls: tls,
                loop: loop,
                resolver: resolver
            )
        } catch {
            switch error.code {
            case .cancelled:
                throw SessionError(.cancelled, "the dial was cancelled")
            case .connectFailed:
                // The socket's message names the address (once) and the system's reason.
                throw SessionError(.relayUnreachable, "no relay answers at \(error.message)", cause: error)
            case .timeout, .tlsHandshakeTimeout:
                throw SessionError(
                    .slowLink,
                    "the relay at \(host):\(port) was too slow to open: \(error.message)",
                    cause: error
                )
            case _ where error.isPermanentTLSFailure:
                throw SessionError(.relayNotTrusted, error.message, cause: error)
            default:
                throw SessionError(
                    .dialFailed,
                    "the relay at \(host):\(port) could not be reached: \(error)",
                    cause: error
                )
            }
        }
        return RelayCarrier(connection: connection) { [rendezvous] code, reason in
            rendezvous.noteClose(code: code, reason: reason)
        }
    }
}
