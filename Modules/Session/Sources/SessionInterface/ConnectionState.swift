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
    /// The connection ended; the reason is for logs.
    case closed(reason: String)
}
