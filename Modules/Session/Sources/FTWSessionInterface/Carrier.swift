/// Moves opaque binary messages between the app and the box's side of a relay room; knows nothing of Noise or
/// frames, so a WebSocket to the relay and an in-memory pipe to the demo box are interchangeable.
public protocol Carrier: Sendable {
    /// What arrives from the room, until the carrier closes (the stream then finishes after `.closed`).
    ///
    /// - Important: One consumer only: the session that dialled the carrier.
    var incoming: AsyncStream<CarrierEvent> { get }

    /// Sends one binary message (one Noise message).
    ///
    /// - Throws: `SessionError` with `.carrierLost` once the carrier is closed; nothing is queued for later.
    func send(_ message: [UInt8]) async throws(SessionError)

    /// Closes the carrier; `incoming` finishes.
    func close() async

    /// The bytes of a message that has begun to arrive and is not whole yet: what tells a link that trickles an
    /// answer from a box that keeps silent, when a deadline passes before the message is.
    var arrivingBytes: Int { get }
}

extension Carrier {
    /// None: a carrier that hands over whole messages only, such as an in-memory one.
    public var arrivingBytes: Int { 0 }
}

/// Something that arrived on a carrier.
public enum CarrierEvent: Sendable, Hashable {
    /// One binary message from the box's side.
    case binary([UInt8])
    /// A relay control word: `ready` (the box is in the room) or `gone` (it left; the socket stays up).
    case control(String)
    /// The carrier closed, with the close code and reason (a relay's 4409/4410 carry the epoch in the reason).
    case closed(code: Int, reason: String)
}

/// Opens carriers: to the relay over a WebSocket, or to the in-process demo box.
public protocol CarrierDialer: Sendable {
    /// Opens a new carrier into the box's room.
    ///
    /// - Throws: `SessionError` with `.dialFailed` when the room cannot be reached or refuses us.
    func dial() async throws(SessionError) -> any Carrier

    /// When the box comes into the room the next dial joins, while the relay has yet to move it there at the hour's
    /// turn; nil when the box should be there already, or the dialer cannot tell. The session waits in the room
    /// until then instead of redialling an empty one.
    var boxArrival: BoxArrival? { get }
}

extension CarrierDialer {
    /// Unknown: a dialer that knows no relay's hours, such as an in-process one.
    public var boxArrival: BoxArrival? { nil }
}
