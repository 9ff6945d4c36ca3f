public import ClockSeam
import Noise
public import SessionInterface
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
/// It also knows when the box comes into this hour's room (``boxArrival``): the relay moves each old room to the new
/// hour at an offset of its own in a five-minute spread, taken from the old room's handle, and the secret that names
/// the handles names that offset too.
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

    /// How long the relay spreads the hour's turn over: the old rooms are moved (closed with 4410) one by one within
    /// this many ms of the hour (relay/src/server.ts, `rotateSpreadMs`).
    public static let rotationSpreadMs: Int64 = 300_000

    /// The longest the box waits, after the relay moved its room, before it joins the new one: a random 0–5 s
    /// (the box's reconnect rule on 4410, protocol.md §8.3).
    public static let boxRejoinJitterMs: Int64 = 5_000

    /// When, in ms after the hour, the relay moves the room still on `handle` (the previous hour's) to the new hour:
    /// the handle's first four hex digits as a fraction of 65536, times the spread, rounded down (relay/src/server.ts,
    /// `rotationOffsetMs`). A handle that does not begin with four hex digits (none of ours) reads as 0, since the
    /// relay's `parseInt` makes it a timer of no delay.
    ///
    /// - Parameter handle: The room handle of the hour before the turn.
    public static func rotationOffsetMs(handle: String) -> Int64 {
        let leading = handle.prefix(4)
        guard leading.count == 4, let value = UInt16(leading, radix: 16) else { return 0 }
        return Int64(value) * rotationSpreadMs / 65_536
    }

    /// When the box of `secret` comes into `epoch`'s room: the relay moves it from the previous hour's room at that
    /// room's offset after the hour, and the box rejoins within ``boxRejoinJitterMs``.
    ///
    /// - Parameters:
    ///   - secret: The QR code's 32-byte rendezvous secret.
    ///   - epoch: The hour whose room the box comes into.
    public static func boxArrival(secret: [UInt8], epoch: Int64) -> BoxArrival {
        let movesAtMs =
            epoch * Rendezvous.epochMilliseconds
            + rotationOffsetMs(handle: Rendezvous.handle(secret: secret, epoch: epoch - 1))
        return BoxArrival(movesAtMs: movesAtMs, dueByMs: movesAtMs + boxRejoinJitterMs)
    }

    /// When the box comes into the room the next dial joins, while that is still ahead on the wall clock: in the
    /// first minutes of an hour, until the relay has moved this household's room and the box has had its time to
    /// rejoin; nil otherwise. Also nil while a relay's correction names an hour our clock has not reached: how far
    /// ahead the relay's clock is cannot be known, so its moment cannot be placed on ours.
    public var boxArrival: BoxArrival? {
        let nowMs = wallClock.nowMs
        let epoch = epoch
        let (hourStartMs, overflow) = epoch.multipliedReportingOverflow(by: Rendezvous.epochMilliseconds)
        guard !overflow, hourStartMs <= nowMs, nowMs - hourStartMs < Self.rotationSpreadMs + Self.boxRejoinJitterMs
        else { return nil }
        let arrival = Self.boxArrival(secret: secret, epoch: epoch)
        return arrival.dueByMs > nowMs ? arrival : nil
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
