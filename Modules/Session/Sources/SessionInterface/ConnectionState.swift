public import BoxProtocol

/// Where the session's connection to the box stands.
public enum ConnectionState: Sendable, Hashable {
    /// No carrier and none wanted (launched and not yet in front, or in the background).
    case idle
    /// Opening a carrier (attempt 1, 2, …; 1 right after a return, more after failures).
    case dialing(attempt: Int)
    /// A carrier is open and the Noise handshake is running.
    case handshaking
    /// The handshake is done and hello answered; the stream runs.
    case streaming(HelloOK)
    /// The connection ended (or, for ``SessionError/Code/boxOffline``, waits in an empty room); the reason is typed,
    /// so a person can be told which failure it was: no relay, no box, a silent box, a slow link, a refusal.
    case closed(reason: SessionError)
}
