import FTWBus
import FTWClockSeam
import FTWSessionInterface

extension SimulatedBox {
    /// The largest message the relay carries.
    static let maxRelayMessage = 65_536
    /// How long the box's uplink waits before it rejoins the room after the relay dropped it: its full-jitter
    /// backoff (`random × min(60 s, 500 ms · 2^attempt)`, protocol.md §8.3) at its middle, so a simulation replays.
    static func uplinkBackoff(attempt: Int) -> Duration {
        .milliseconds(min(60_000, 500 << min(attempt, 7)) / 2)
    }

    /// Joins the room as an in-process app stream without a join path (a test of the box alone): no allowance or
    /// epoch applies; a fifth stream is closed at once with 4429 `streams`.
    func joinInProcess() -> any Carrier {
        carrier(for: join(path: nil, address: RelayModel.householdAddress, followsTheHour: false))
    }

    /// Joins the room in-process at `path`, as a phone joins the real relay: the household's join allowance, the
    /// epoch and the handle are judged as over WebSocket, the hour's turn moves it as it moves a WebSocket stream,
    /// and every close is told to `noteClose` as a WebSocket carrier reports its close frame. A skewed relay clock
    /// leaves it in the box's room.
    func joinInProcess(path: String, noteClose: @escaping @Sendable (Int, String) -> Void) -> any Carrier {
        let decision = join(
            path: path,
            address: RelayModel.householdAddress,
            followsTheHour: false,
            onClose: noteClose
        )
        if case .refused(let code, let reason) = decision { noteClose(code, reason) }
        return carrier(for: decision)
    }

    /// Judges a WebSocket join from `address` the way the relay does (``RelayModel/join(path:address:followsTheHour:onClose:)``).
    func relayJoin(path: String, address: String) -> RelayModel.Join {
        join(path: path, address: address, followsTheHour: true)
    }

    /// The relay's next epoch comes now: every stream closes with 4410 and the new epoch, which phones adopt and
    /// rejoin under.
    public func rotateRelayEpoch() {
        relayModel.rotate()
        closeSessionsIfRoomEmpty()
    }

    /// The relay's clock reads `hours` off the wall clock: joins under the wall clock's epoch get 4409 with the
    /// relay's (a phone adopts it only within one epoch of its own).
    public func skewRelayClock(hours: Int64) {
        relayModel.skew(hours: hours)
        closeSessionsIfRoomEmpty()
    }

    /// The household's join allowance for this 60 s window is spent: joins get 4429 `slow down` until it turns.
    public func spendJoinAllowance() {
        relayModel.spendAllowance()
    }

    /// The relay's proxy restarts: every stream and the box's uplink close with 1001; the box rejoins after its
    /// backoff, and phones that joined meanwhile hear `ready` then.
    public func restartRelay() {
        relayModel.restart()
        closeAllSessions()
        schedule(.uplinkRejoin(attempt: 0), after: Self.uplinkBackoff(attempt: 0))
    }

    /// The box's uplink tries the room of the relay's epoch again; refused by the allowance, it backs off once more.
    /// The phones waiting there hear `ready`.
    func uplinkRejoin(attempt: Int) {
        guard !relayModel.boxInRoom else { return }
        guard let waiting = relayModel.boxJoins() else {
            return schedule(.uplinkRejoin(attempt: attempt + 1), after: Self.uplinkBackoff(attempt: attempt + 1))
        }
        for stream in waiting { relay(.toStream(stream, .control("ready"))) }
    }

    /// How long the box waits, after the relay moved its room at the hour's turn (4410), before it joins the new one:
    /// its random 0–5 s (protocol.md §8.3, box reconnect rules) at its middle, so a simulation replays.
    static let rotationRejoinDelay = Duration.milliseconds(2_500)

    /// Asks the relay to look at its clock at its next moment (``RelayModel/nextTurnMs``), replacing any look
    /// already asked for.
    func scheduleRelayTurn() {
        relayTurnGeneration += 1
        let waitMs = max(1, relayModel.nextTurnMs - wallClock.nowMs)
        schedule(.relayTurn(generation: relayTurnGeneration), after: .milliseconds(waitMs))
    }

    /// The relay looks at its clock: the phones it moved out of the old room leave it (with none left the box closes
    /// its sessions), a box it moved rejoins after its wait, and the relay looks again at its next moment.
    func relayTurn(generation: Int) {
        guard generation == relayTurnGeneration else { return }
        if relayModel.turn() {
            schedule(.uplinkRejoin(attempt: 0), after: Self.rotationRejoinDelay)
        }
        closeSessionsIfRoomEmpty()
        scheduleRelayTurn()
    }

    private func join(
        path: String?,
        address: String,
        followsTheHour: Bool,
        onClose: (@Sendable (Int, String) -> Void)? = nil
    ) -> RelayModel.Join {
        let decision = relayModel.join(path: path, address: address, followsTheHour: followsTheHour, onClose: onClose)
        guard case .joined(let id, _, let hearsReady) = decision else { return decision }
        noteArrival()
        if hearsReady { relay(.toStream(id, .control("ready"))) }
        return decision
    }

    private func carrier(for decision: RelayModel.Join) -> any Carrier {
        switch decision {
        case .joined(let id, let events, _):
            InProcessCarrier(box: self, streamID: id, incoming: events)
        case .refused(let code, let reason):
            InProcessCarrier(box: self, streamID: nil, incoming: RelayRoom.refused(code: code, reason: reason))
        }
    }

    /// A phone's message enters the relay towards the uplink.
    ///
    /// - Throws: `SessionError` `.carrierLost` when the stream has left the room (a cut, a close).
    func carrierSend(streamID: Int, _ message: [UInt8]) throws(SessionError) {
        guard relayModel.room.contains(streamID) else {
            throw SessionError(.carrierLost, "the stream has left the room")
        }
        relay(.toBox(stream: streamID, bytes: message))
    }

    /// The phone closed its carrier: its stream ends, and the box hears `gone` once no phone is left.
    func carrierClose(streamID: Int) {
        leaveRoom(streamID: streamID, closing: .closed(code: 1000, reason: "closed"))
    }

    /// A stream left the room (its socket closed); with no phone left the box closes its sessions.
    func leaveRoom(streamID: Int, closing: CarrierEvent? = nil) {
        guard relayModel.leave(streamID, closing: closing) else { return }
        closeSessionsIfRoomEmpty()
    }

    /// With no phone left in the room the relay tells the box `gone`, and the box closes its sessions.
    func closeSessionsIfRoomEmpty() {
        if relayModel.room.streams.isEmpty { closeAllSessions() }
    }
}
