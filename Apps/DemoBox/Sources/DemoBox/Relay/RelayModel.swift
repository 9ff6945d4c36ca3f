import ClockSeam
import Noise
import SessionInterface

/// The relay of protocol.md §8.3 apart from any socket: its epoch on its own clock, the box's room, the join
/// allowance per address, and what a rotation, a skewed clock and a restart do to the room.
///
/// The in-process room (scenarios, on a simulated clock) and `DemoRelayServer` (WebSocket, on the wall clock) both
/// join through it, so a scenario's `relay rotate` and the wall-clock relay's hour run the same code. The box owns
/// one and delivers what it decides (a `ready` through the relay's latency, a close at once).
struct RelayModel: Sendable {
    /// What the relay does with a join.
    enum Join: Sendable {
        /// In the room as stream `id`; `hearsReady` when the box's uplink is in the room to greet it.
        case joined(id: Int, events: AsyncStream<CarrierEvent>, hearsReady: Bool)
        /// Closed at once with `code` and `reason`: 4429 `slow down` or `streams`, 4400, 4409 with the relay's epoch.
        case refused(code: Int, reason: String)
    }

    /// Where the household's box and phones join from, behind one NAT address: the in-process path's address, and
    /// the box uplink's.
    static let householdAddress = "127.0.0.1"
    /// The code a Caddy restart or reload closes every WebSocket with (no `stream_close_delay`).
    static let restartCode = 1001
    /// The close of a turned epoch; the reason carries the new one.
    static let rotatedCode = 4410

    private let wallClock: any WallClock
    private let secret: [UInt8]
    private(set) var room = RelayRoom()
    /// Whether the box's uplink is in the room: phones that join hear `ready` only then.
    private(set) var boxInRoom = true
    /// How many hours the relay's clock reads off the wall clock (``skew(hours:)``).
    private var skewEpochs: Int64 = 0
    /// The epoch the last ``rotate()`` moved the relay to, ahead of its clock until the clock's hour catches up.
    private var rotatedTo: Int64 = .min
    /// The epoch the hourly turn last saw: a different ``epoch`` means the hour turned.
    private var turnedAt: Int64
    private var allowance: JoinAllowance

    /// A relay for the room of the box whose rendezvous secret is `secret`, reading `wallClock`, allowing
    /// `joinAllowance` joins per address in a 60 s window (nil: no limit).
    init(wallClock: any WallClock, secret: [UInt8], joinAllowance: Int?) {
        self.wallClock = wallClock
        self.secret = secret
        let now = wallClock.nowMs
        turnedAt = Rendezvous.epoch(nowMs: now)
        allowance = JoinAllowance(limit: joinAllowance, startMs: now)
    }

    /// The epoch the relay accepts joins for now: its clock's hour, or the epoch a rotation moved it to until its
    /// clock catches up.
    var epoch: Int64 {
        max(Rendezvous.epoch(nowMs: wallClock.nowMs) + skewEpochs, rotatedTo)
    }

    /// Judges a join as the relay does, in its order: the allowance of `address`, the path
    /// (`/r/<epoch>/<handle>/app`, else 4400), the epoch (4409 with the relay's), the handle (4400 for another
    /// room), the room's four streams (4429 `streams`).
    ///
    /// - Parameters:
    ///   - path: The join path; nil for an in-process stream that joins without one (tests of the box alone),
    ///     which no allowance or epoch applies to.
    ///   - address: Where the join comes from.
    ///   - followsTheHour: Whether the hourly turn closes the stream (WebSocket streams do).
    ///   - onClose: Told of the close the stream ends with.
    mutating func join(
        path: String?,
        address: String,
        followsTheHour: Bool,
        onClose: (@Sendable (Int, String) -> Void)? = nil
    ) -> Join {
        var epoch: Int64?
        if let path {
            guard allowance.allow(address, nowMs: wallClock.nowMs) else {
                return .refused(code: 4429, reason: "slow down")
            }
            guard let join = RelayPath(path) else { return .refused(code: 4400, reason: "bad path") }
            let current = self.epoch
            guard join.epoch == current else { return .refused(code: 4409, reason: String(current)) }
            guard join.handle == Rendezvous.handle(secret: secret, epoch: current) else {
                return .refused(code: 4400, reason: "unknown handle")
            }
            epoch = current
        }
        guard let joined = room.join(epoch: epoch, followsTheHour: followsTheHour, onClose: onClose) else {
            return .refused(code: 4429, reason: "streams")
        }
        return .joined(id: joined.id, events: joined.events, hearsReady: boxInRoom)
    }

    /// The hour turned on the relay's clock: every stream that follows the hour closes with 4410 and the new epoch.
    /// In-process streams stay: the simulated relay moves no room at the hour (only ``rotate()`` does).
    ///
    /// - Returns: Whether the hour turned.
    @discardableResult
    mutating func turnIfDue() -> Bool {
        let now = epoch
        guard now != turnedAt else { return false }
        turnedAt = now
        room.close(where: \.followsTheHour, code: Self.rotatedCode, reason: String(now))
        return true
    }

    /// The relay's next epoch comes now, as at the top of the hour: every stream, in-process or not, closes with
    /// 4410 and the new epoch, and joins are accepted under it only; the relay's clock catches up at its next hour.
    mutating func rotate() {
        rotatedTo = epoch + 1
        turnedAt = rotatedTo
        room.close(code: Self.rotatedCode, reason: String(rotatedTo))
    }

    /// The relay's clock reads `hours` off the wall clock (0 puts it right): joins under the wall clock's epoch get
    /// 4409 with the relay's, and the streams that follow the hour close as at a turn.
    mutating func skew(hours: Int64) {
        skewEpochs = hours
        turnIfDue()
    }

    /// The household's join allowance in this window is spent: its next joins get 4429 `slow down` until the window
    /// turns.
    mutating func spendAllowance() {
        allowance.spend(Self.householdAddress, nowMs: wallClock.nowMs)
    }

    /// Caddy restarts: every socket closes with 1001, the box's uplink too; the box is out of the room until it
    /// rejoins (``boxJoins()``).
    mutating func restart() {
        room.close(code: Self.restartCode, reason: "")
        boxInRoom = false
    }

    /// The box's uplink leaves the room (a reboot, an update).
    mutating func boxLeaves() {
        boxInRoom = false
    }

    /// The box's uplink joins from the household's address; false when the allowance refused it (4429 `slow
    /// down`) and it must try again later.
    mutating func boxJoins() -> Bool {
        guard allowance.allow(Self.householdAddress, nowMs: wallClock.nowMs) else { return false }
        boxInRoom = true
        return true
    }

    /// A stream leaves the room; `closing` is what it is handed last. False when it had already left.
    mutating func leave(_ id: Int, closing: CarrierEvent?) -> Bool {
        room.remove(id, closing: closing) != nil
    }

    /// The network drops under every phone at once (1006): no close frame, the streams just end.
    mutating func cut() {
        room.close(code: 1006, reason: "connection lost")
    }
}
