public import FTWClockSeam
public import FTWNoise
public import FTWSessionInterface
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
/// hour on its first heartbeat at or after an offset of its own in a five-minute spread, taken from the old room's
/// handle, and the secret that names the handles names that offset too. The hour and the spread are the production relay's unless the rendezvous is
/// handed a shorter `RelaySchedule` (a demo relay's, in a wall-clock test), never learnt from the relay.
///
/// ## Concurrency
/// A `Sendable` class; the adopted offset sits behind a `Mutex`, shared with the carriers that report closes.
public final class RelayRendezvous: Sendable {
    private let secret: [UInt8]
    private let wallClock: any WallClock
    private let offset = Mutex<Int64>(0)
    /// How long the relay's epochs last and how its turn is spread.
    public let schedule: RelaySchedule

    /// Makes the rendezvous of one box's rooms on the production relay's hours.
    ///
    /// - Parameters:
    ///   - secret: The QR code's 32-byte rendezvous secret.
    ///   - wallClock: The wall clock that names the epoch.
    public convenience init(secret: [UInt8], wallClock: any WallClock) {
        self.init(secret: secret, wallClock: wallClock, schedule: .production)
    }

    /// Makes the rendezvous of one box's rooms on a relay whose epochs and spread are `schedule`.
    ///
    /// - Parameters:
    ///   - secret: The QR code's 32-byte rendezvous secret.
    ///   - wallClock: The wall clock that names the epoch.
    ///   - schedule: The relay's epochs and spread: `RelaySchedule.production`, unless a test's demo relay
    ///     shortens them.
    public init(secret: [UInt8], wallClock: any WallClock, schedule: RelaySchedule) {
        self.secret = secret
        self.wallClock = wallClock
        self.schedule = schedule
    }

    /// The epoch the next dial joins: the wall clock's hour plus the relay's correction, if one was adopted.
    public var epoch: Int64 {
        schedule.epoch(nowMs: wallClock.nowMs) + offset.withLock { $0 }
    }

    /// The path the next dial asks for, on the app's side of the room.
    public var path: String {
        let epoch = epoch
        return "/r/\(epoch)/\(Rendezvous.handle(secret: secret, epoch: epoch))/app"
    }

    /// The longest the box waits, after the relay moved its room, before it joins the new one: a random 0–5 s
    /// (the box's reconnect rule on 4410, protocol.md §8.3).
    public static let boxRejoinJitterMs: Int64 = 5_000

    /// When the box of `secret` comes into `epoch`'s room: the relay moves it from the previous hour's room at the
    /// first beat of its heartbeat at or after that room's offset after the hour
    /// (`RelaySchedule.rotationOffsetMs(handle:)`), up to `RelaySchedule.beatMs` late, and the box rejoins within
    /// ``boxRejoinJitterMs``: it is due between the offset and the offset plus both. Nil for an epoch whose start no
    /// `Int64` holds.
    ///
    /// - Parameters:
    ///   - secret: The QR code's 32-byte rendezvous secret.
    ///   - epoch: The hour whose room the box comes into.
    ///   - schedule: The relay's epochs and spread.
    public static func boxArrival(
        secret: [UInt8],
        epoch: Int64,
        schedule: RelaySchedule = .production
    ) -> BoxArrival? {
        guard let startMs = schedule.startMs(ofEpoch: epoch) else { return nil }
        let movesAtMs = startMs + schedule.rotationOffsetMs(handle: Rendezvous.handle(secret: secret, epoch: epoch - 1))
        return BoxArrival(movesAtMs: movesAtMs, dueByMs: movesAtMs + RelaySchedule.beatMs + boxRejoinJitterMs)
    }

    /// When the box comes into the room the next dial joins, while that is still ahead on the wall clock: in the
    /// first minutes of an hour, until the relay's latest beat for this household's room has passed and the box has
    /// had its time to rejoin; nil otherwise. Also nil while a relay's correction names an hour our clock has not reached: how far
    /// ahead the relay's clock is cannot be known, so its moment cannot be placed on ours.
    public var boxArrival: BoxArrival? {
        let nowMs = wallClock.nowMs
        let epoch = epoch
        guard let hourStartMs = schedule.startMs(ofEpoch: epoch), hourStartMs <= nowMs,
            nowMs - hourStartMs < schedule.rotationSpreadMs + RelaySchedule.beatMs + Self.boxRejoinJitterMs,
            let arrival = Self.boxArrival(secret: secret, epoch: epoch, schedule: schedule)
        else { return nil }
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
        let (correction, overflow) = announced.subtractingReportingOverflow(schedule.epoch(nowMs: wallClock.nowMs))
        guard !overflow, (-1...1).contains(correction) else { return }
        offset.withLock { $0 = correction }
    }
}
