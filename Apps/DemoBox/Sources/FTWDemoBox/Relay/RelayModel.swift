import FTWClockSeam
import FTWNoise
import FTWSessionInterface

/// The relay of protocol.md §8.3 apart from any socket: its epoch on its own clock, the household's rooms, the join
/// allowance per address, the hour's turn, and what a rotation, a skewed clock and a restart do to the rooms.
///
/// The in-process room (scenarios, on a simulated clock) and `DemoRelayServer` (WebSocket, on the wall clock) both
/// join through it, so a scenario's return at 10:00:20 and the wall-clock relay's hour run the same code. The box owns
/// one and delivers what it decides (a `ready` through the relay's latency, a close at once), and calls ``turn()`` at
/// ``nextTurnMs``.
///
/// The hour's turn (relay/src/server.ts): when the relay's epoch advances it accepts joins for the new epoch only
/// (4409 with the right number for any other), and leaves the room still on the old handle as it is until
/// `offset = floor(parseInt(oldHandle[0..4], 16) / 65536 × spread)` ms after the epoch began; on the first beat of its
/// heartbeat (``RelayBeat``) at or after that, it closes that room's streams and the box's uplink with 4410 and the
/// new epoch, and the box rejoins under it after its own wait (`SimulatedBox.rotationRejoinDelay`). A phone that
/// joined the new room meanwhile waits there and hears `ready` when the box comes.
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
    /// How long the relay's epochs last and how its turn is spread.
    let schedule: RelaySchedule
    /// The heartbeat the relay looks for old rooms to move on.
    let beat: RelayBeat
    private(set) var room = RelayRoom()
    /// The epoch of the room the box's uplink is in; nil while it is out (a restart, a reboot, the hour's move).
    private(set) var boxEpoch: Int64?
    /// How many epochs the relay's clock reads off the wall clock (``skew(hours:)``).
    private var skewEpochs: Int64 = 0
    /// The epoch the last ``rotate()`` moved the relay to, ahead of its clock until the clock's hour catches up.
    private var rotatedTo: Int64 = .min
    /// The epoch the relay was on when it last looked: a later ``epoch`` means its epoch advanced.
    private var turnedAt: Int64
    /// When the room still on the previous epoch's handle is moved, Unix ms; nil when none waits to be.
    private var pendingMoveMs: Int64?
    private var allowance: JoinAllowance

    /// A relay for the rooms of the box whose rendezvous secret is `secret`, reading `wallClock` on `schedule` and
    /// moving old rooms on `beat`, allowing `joinAllowance` joins per address in a 60 s window (nil: no limit). The
    /// box's uplink is in the room of the relay's epoch.
    init(wallClock: any WallClock, secret: [UInt8], schedule: RelaySchedule, beat: RelayBeat, joinAllowance: Int?) {
        self.wallClock = wallClock
        self.secret = secret
        self.schedule = schedule
        self.beat = beat
        let now = wallClock.nowMs
        turnedAt = schedule.epoch(nowMs: now)
        boxEpoch = turnedAt
        allowance = JoinAllowance(limit: joinAllowance, startMs: now)
    }

    /// The epoch the relay accepts joins for now: its clock's, or the epoch a rotation moved it to until its clock
    /// catches up.
    var epoch: Int64 {
        max(schedule.epoch(nowMs: wallClock.nowMs) + skewEpochs, rotatedTo)
    }

    /// Whether the box's uplink is in a room: phones in that room hear `ready`.
    var boxInRoom: Bool { boxEpoch != nil }

    /// When ``turn()`` has something to do next, Unix ms: the first beat at or after the pending move of the old room,
    /// else after the start of the wall clock's next epoch (where the relay's epoch may advance; joins follow the
    /// epoch at once, the move waits for a beat).
    var nextTurnMs: Int64 {
        beat.firstBeat(
            atOrAfter: pendingMoveMs ?? schedule.startMs(ofEpoch: schedule.epoch(nowMs: wallClock.nowMs) + 1) ?? .max
        )
    }

    /// Judges a join as the relay does, in its order: the allowance of `address`, the path
    /// (`/r/<epoch>/<handle>/app`, else 4400), the epoch (4409 with the relay's), the handle (4400 for another
    /// room), the room's four streams (4429 `streams`). A stream in a room the box has yet to come into waits there.
    ///
    /// - Parameters:
    ///   - path: The join path; nil for an in-process stream that joins without one (tests of the box alone),
    ///     which no allowance, epoch or turn applies to.
    ///   - address: Where the join comes from.
    ///   - followsTheHour: Whether a skewed relay clock closes the stream (WebSocket streams do).
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
        let waits = boxEpoch == nil || (epoch != nil && epoch != boxEpoch)
        guard
            let joined = room.join(epoch: epoch, followsTheHour: followsTheHour, waitsForBox: waits, onClose: onClose)
        else {
            return .refused(code: 4429, reason: "streams")
        }
        return .joined(id: joined.id, events: joined.events, hearsReady: !waits)
    }

    /// The relay's clock has moved on (called on a beat): an advanced epoch schedules the move of the old room at its
    /// handle's offset, and a move that is due closes the old room's streams with 4410 and the new epoch and takes the box's uplink out
    /// (it rejoins after its own wait).
    ///
    /// - Returns: Whether the box's uplink was moved out of its room and must rejoin.
    mutating func turn() -> Bool {
        let current = epoch
        if current != turnedAt {
            let previous = turnedAt
            turnedAt = current
            let startMs = schedule.startMs(ofEpoch: current - skewEpochs) ?? wallClock.nowMs
            pendingMoveMs =
                min(startMs, wallClock.nowMs)
                + schedule.rotationOffsetMs(handle: Rendezvous.handle(secret: secret, epoch: previous))
        }
        guard let dueMs = pendingMoveMs, dueMs <= wallClock.nowMs else { return false }
        pendingMoveMs = nil
        // Every joined stream but those waiting in the new room: the old room, and any older one left stranded.
        room.close(
            where: { $0.epoch != nil && !($0.waitsForBox && $0.epoch == current) },
            code: Self.rotatedCode,
            reason: String(current)
        )
        guard let boxEpoch, boxEpoch != current else { return false }
        self.boxEpoch = nil
        return true
    }

    /// The relay's next epoch comes now, as a turn with every room moved at once: every stream, in-process or not,
    /// closes with 4410 and the new epoch, the box's uplink comes along, and joins are accepted under the new epoch
    /// only; the relay's clock catches up at its next hour.
    mutating func rotate() {
        rotatedTo = epoch + 1
        turnedAt = rotatedTo
        pendingMoveMs = nil
        room.close(code: Self.rotatedCode, reason: String(rotatedTo))
        if boxInRoom { boxEpoch = rotatedTo }
    }

    /// The relay's clock reads `hours` off the wall clock (0 puts it right): joins under the wall clock's epoch get
    /// 4409 with the relay's, the WebSocket streams close with 4410 and it, and the box's room is named by it at once
    /// with the in-process streams still in it.
    mutating func skew(hours: Int64) {
        skewEpochs = hours
        let current = epoch
        guard current != turnedAt else { return }
        turnedAt = current
        pendingMoveMs = nil
        room.close(where: \.followsTheHour, code: Self.rotatedCode, reason: String(current))
        room.retag(where: { !$0.waitsForBox }, epoch: current)
        if boxInRoom { boxEpoch = current }
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
        boxEpoch = nil
    }

    /// The box's uplink leaves the room (a reboot, an update): the phones in it wait there for it.
    mutating func boxLeaves() {
        boxEpoch = nil
        _ = room.setWaiting(true) { _ in true }
    }

    /// The box's uplink joins the room of the relay's epoch from the household's address.
    ///
    /// - Returns: The streams waiting in that room, which hear `ready` now; nil when the allowance refused the join
    ///   (4429 `slow down`) and the box must try again later.
    mutating func boxJoins() -> [Int]? {
        guard allowance.allow(Self.householdAddress, nowMs: wallClock.nowMs) else { return nil }
        let current = epoch
        boxEpoch = current
        return room.setWaiting(false) { $0.epoch == nil || $0.epoch == current }
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
