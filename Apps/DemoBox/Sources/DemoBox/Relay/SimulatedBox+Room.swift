import ClockSeam
import Noise
import SessionInterface

extension SimulatedBox {
    /// The largest message the relay carries.
    static let maxRelayMessage = 65_536

    /// Joins the room as an in-process app stream; a fifth stream is closed at once with 4429 `streams`.
    func joinInProcess() -> any Carrier {
        guard let joined = join(epoch: nil) else {
            return InProcessCarrier(
                box: self,
                streamID: nil,
                incoming: RelayRoom.refused(code: 4429, reason: "streams")
            )
        }
        return InProcessCarrier(box: self, streamID: joined.id, incoming: joined.events)
    }

    /// Judges a WebSocket join path the way the relay does: a path that is not `/r/<epoch>/<handle>/app` is 4400,
    /// an epoch other than the relay's is 4409 with the right one, a handle that is not this box's room is 4400,
    /// a fifth stream is 4429 `streams`.
    func relayJoin(path: String) -> RelayDecision {
        guard let join = RelayPath(path) else { return .refused(code: 4400, reason: "bad path") }
        let epoch = relayEpoch(wallMs: wallClock.nowMs)
        guard join.epoch == epoch else { return .refused(code: 4409, reason: String(epoch)) }
        guard join.handle == Rendezvous.handle(secret: identity.rendezvousSecret, epoch: epoch) else {
            return .refused(code: 4400, reason: "unknown handle")
        }
        guard let joined = self.join(epoch: epoch) else { return .refused(code: 4429, reason: "streams") }
        return .joined(id: joined.id, events: joined.events)
    }

    /// The relay's next epoch comes early: every WebSocket stream is closed with 4410 and the new epoch, which
    /// phones adopt and rejoin under.
    func rotateEpoch() {
        epochOffset += 1
        currentEpoch = relayEpoch(wallMs: wallClock.nowMs)
        closeEpochStreams(epoch: currentEpoch)
    }

    private func join(epoch: Int64?) -> (id: Int, events: AsyncStream<CarrierEvent>)? {
        guard let joined = room.join(epoch: epoch) else { return nil }
        relay(.toStream(joined.id, .control("ready")))
        return joined
    }

    /// A phone's message enters the relay towards the uplink.
    ///
    /// - Throws: `SessionError` `.carrierLost` when the stream has left the room (a cut, a close).
    func carrierSend(streamID: Int, _ message: [UInt8]) throws(SessionError) {
        guard room.contains(streamID) else { throw SessionError(.carrierLost, "the stream has left the room") }
        relay(.toBox(stream: streamID, bytes: message))
    }

    /// The phone closed its carrier: its stream ends, and the box hears `gone` once no phone is left.
    func carrierClose(streamID: Int) {
        leaveRoom(streamID: streamID, closing: .closed(code: 1000, reason: "closed"))
    }

    /// A stream left the room (its socket closed); with no phone left the box closes its sessions.
    func leaveRoom(streamID: Int, closing: CarrierEvent? = nil) {
        guard room.remove(streamID, closing: closing) != nil else { return }
        if room.streams.isEmpty { closeAllSessions() }
    }
}
