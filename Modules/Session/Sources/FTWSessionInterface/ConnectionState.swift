public import FTWBoxProtocol

/// Where the session's connection to the box stands.
public enum ConnectionState: Sendable, Hashable {
    /// No carrier and none wanted (launched and not yet in front, or in the background).
    case idle
    /// Opening a carrier (attempt 1, 2, …; 1 right after a return, more after failures).
    case dialing(attempt: Int)
    /// A carrier is open in this hour's room and the box is not there yet: the relay moves it there at the hour's
    /// turn, between ``BoxArrival/movesAtMs`` and ``BoxArrival/dueByMs``. A wait with a known end, not an outage: the session stays in the room and
    /// starts the handshake the moment the box arrives.
    case awaitingBox(BoxArrival)
    /// A carrier is open and the Noise handshake is running.
    case handshaking
    /// The handshake is done and hello answered; the stream runs.
    case streaming(HelloOK)
    /// The connection ended and the session dials again at ``RetryWait/nextTryAtMs``: published right after the
    /// ``closed(reason:)`` that caused it, so a screen can say "reconnecting in 3 s" and why.
    case backingOff(RetryWait)
    /// The connection ended (or, for ``SessionError/Code/boxOffline``, waits in an empty room); the reason is typed,
    /// so a person can be told which failure it was: no relay, no box, a silent box, a slow link, a refusal.
    case closed(reason: SessionError)
}
