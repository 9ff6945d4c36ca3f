public import ClockSeam
import Noise
public import SessionInterface
import Synchronization
import WebSocket

/// Opens carriers to the relay: a WebSocket to `ws://<host>:<port>/r/<epoch>/<handle>/app`, where the epoch is the
/// hour of the wall clock and the handle is derived from the QR code's rendezvous secret.
///
/// The relay corrects a clock that reads the wrong hour: a 4409 or 4410 close names its epoch, and the dialer adopts
/// it as an offset to the local epoch, but only within one epoch of ours, because a relay that could name any epoch
/// could make us publish handles of its choosing. When to redial after such a close is the session's decision.
///
/// ## Concurrency
/// A `Sendable` class; the adopted offset sits behind a `Mutex`, shared with the carriers that report closes.
public final class RelayDialer: CarrierDialer {
    private final class EpochOffset: Sendable {
        let value = Mutex<Int64>(0)
    }

    private let host: String
    private let port: Int
    private let secret: [UInt8]
    private let clock: any Clock<Duration>
    private let wallClock: any WallClock
    private let offset = EpochOffset()

    /// Makes a dialer for one box's rooms.
    ///
    /// - Parameters:
    ///   - host: The relay's host (127.0.0.1 for the demo relay).
    ///   - port: Its port.
    ///   - rendezvousSecret: The QR code's 32-byte rendezvous secret.
    ///   - clock: The clock the WebSocket's handshake and closing deadlines run on.
    ///   - wallClock: The wall clock that names the epoch.
    public init(
        host: String,
        port: Int,
        rendezvousSecret: [UInt8],
        clock: any Clock<Duration>,
        wallClock: any WallClock
    ) {
        self.host = host
        self.port = port
        self.secret = rendezvousSecret
        self.clock = clock
        self.wallClock = wallClock
    }

    /// The epoch the next dial joins: the wall clock's hour plus the relay's correction, if one was adopted.
    public var epoch: Int64 {
        Rendezvous.epoch(nowMs: wallClock.nowMs) + offset.value.withLock { $0 }
    }

    /// The path the next dial asks for.
    public var path: String {
        let epoch = epoch
        return "/r/\(epoch)/\(Rendezvous.handle(secret: secret, epoch: epoch))/app"
    }

    /// Connects a WebSocket to this hour's room.
    ///
    /// - Throws: `SessionError` with `.cancelled` when the dialling task is cancelled, `.relayUnreachable` when
    ///   nothing listens there (connection refused, no route, an unknown name), `.slowLink` when the connect or the
    ///   upgrade passed its deadline, `.dialFailed` otherwise (the relay refused the upgrade).
    public func dial() async throws(SessionError) -> any Carrier {
        let connection: WebSocketConnection
        do {
            connection = try await WebSocketClient.connect(
                host: host,
                port: port,
                path: path,
                limits: WebSocketLimits(),
                clock: clock
            )
        } catch {
            switch error.code {
            case .cancelled:
                throw SessionError(.cancelled, "the dial was cancelled")
            case .connectFailed:
                throw SessionError(.relayUnreachable, "no relay answers at \(host):\(port): \(error.message)")
            case .timeout:
                throw SessionError(.slowLink, "the relay at \(host):\(port) was too slow to open: \(error.message)")
            default:
                throw SessionError(.dialFailed, "the relay at \(host):\(port) could not be reached: \(error)")
            }
        }
        return RelayCarrier(connection: connection) { [offset, wallClock] code, reason in
            guard code == RelayCloseCode.wrongEpoch || code == RelayCloseCode.rotated,
                let announced = RelayCloseCode.announcedEpoch(in: reason)
            else { return }
            let (correction, overflow) = announced.subtractingReportingOverflow(
                Rendezvous.epoch(nowMs: wallClock.nowMs)
            )
            guard !overflow, (-1...1).contains(correction) else { return }
            offset.value.withLock { $0 = correction }
        }
    }
}
