public import ClockSeam
import Noise
import Synchronization

/// Where this hour's relay room is, apart from any transport: the epoch, the room's path, and the relay's
/// corrections of a clock that reads the wrong hour.
///
/// The path is `/r/<epoch>/<handle>/app`, where the epoch is the hour of the wall clock and the handle is derived from
/// the QR code's rendezvous secret (protocol.md §8.3). A 4409 or 4410 close names the relay's epoch; the rendezvous
/// adopts it as an offset to the local epoch, but only within one epoch of ours, because a relay that could name any
/// epoch could make us publish handles of its choosing.
///
/// ``RelayDialer`` uses it over this package's WebSocket. A carrier on another transport (URLSessionWebSocketTask on
/// Apple platforms, where BSD sockets are not recommended) uses the same type: it opens `wss://<relay><path>` and
/// reports each close with ``noteClose(code:reason:)``, so the rules of the rendezvous are written once.
///
/// ## Concurrency
/// A `Sendable` class; the adopted offset sits behind a `Mutex`, shared with the carriers that report closes.
public final class RelayRendezvous: Sendable {
    private let secret: [UInt8]
    private let wallClock: any WallClock
    private let offset = Mutex<Int64>(0)

    /// Makes the rendezvous of one box's rooms.
    ///
    /// - Parameters:
    ///   - secret: The QR code's 32-byte rendezvous secret.
    ///   - wallClock: The wall clock that names the epoch.
    public init(secret: [UInt8], wallClock: any WallClock) {
        self.secret = secret
        self.wallClock = wallClock
    }

    /// The epoch the next dial joins: the wall clock's hour plus the relay's correction, if one was adopted.
    public var epoch: Int64 {
        Rendezvous.epoch(nowMs: wallClock.nowMs) + offset.withLock { $0 }
    }

    /// The path the next dial asks for, on the app's side of the room.
    public var path: String {
        let epoch = epoch
        return "/r/\(epoch)/\(Rendezvous.handle(secret: secret, epoch: epoch))/app"
    }

    /// Learns from a relay's close: a 4409 (wrong epoch) or 4410 (rotated) close that names an epoch within one of
    /// ours corrects the next dial's epoch; any other close, or a farther epoch, changes nothing.
    ///
    /// - Parameters:
    ///   - code: The WebSocket close code.
    ///   - reason: The close frame's reason text, where the relay names its epoch.
    public func noteClose(code: Int, reason: String) {
        guard code == RelayCloseCode.wrongEpoch || code == RelayCloseCode.rotated,
            let announced = RelayCloseCode.announcedEpoch(in: reason)
        else { return }
        let (correction, overflow) = announced.subtractingReportingOverflow(Rendezvous.epoch(nowMs: wallClock.nowMs))
        guard !overflow, (-1...1).contains(correction) else { return }
        offset.withLock { $0 = correction }
    }
}
