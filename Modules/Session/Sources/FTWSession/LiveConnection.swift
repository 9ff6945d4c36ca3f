import FTWBoxProtocol
import FTWSessionInterface

/// One carrier's life inside the session: dialled, waiting for the box to be in the room, handshaking, greeting,
/// streaming. A `gone` from the relay ends the Noise session but keeps the carrier, which goes back to waiting.
///
/// A value inside ``SessionState``, changed in place by its transitions; the connection's I/O (its outbox, its stop
/// signal, its carrier) belongs to `LiveSession`, which performs what the state asks of it.
struct LiveConnection: Sendable {
    /// Where the connection stands.
    enum Stage: Sendable, Hashable {
        /// The dial runs; only `dialed` may follow.
        case dialing
        /// The carrier is attached and the box is not (yet, or any more) in the room; `ready` starts a handshake.
        case awaitingRoom
        /// Message 1 is out; message 2 moves on to `greeting`, the deadline or `gone` end it.
        case handshaking
        /// The handshake is done and `hello` is out (again every 5 s while the box boots).
        case greeting
        /// `hello_ok` arrived from a box that is up: reads may go out.
        case streaming
    }

    /// Tells this connection's reports from a previous one's.
    let generation: Int
    var stage = Stage.dialing
    /// The Noise channel, from message 1 on.
    var channel: SecureChannel?
    /// The connection number of this process, given when the handshake is done.
    var number: Int?
    /// The box's answer to our hello.
    var hello: HelloOK?
    /// Whether a separate `sub` went out on this Noise session.
    var subscribed = false
    /// Whether `streamReturned` was published for this Noise session.
    var returned = false
    /// Whether a frame of ours has arrived on this Noise session.
    var delivered = false
    /// When the dial started, on the session's clock.
    let dialStarted: Duration
    /// How long the relay took, from the dial's start, to say the box is in the room: the link's delay as this
    /// phone can see it, when `ready` came within the room's deadline (a later one waited for the box, not the
    /// link). A silence shorter than twice this says nothing about the box.
    var roomDelay: Duration?
    /// When the box comes into the room, if the relay had yet to move it there at the hour's turn when the carrier
    /// attached (the room's wait and the return's watchdog count from it), and how long the dial took to attach.
    var awaitedBox: (arrival: BoxArrival, attachedAfter: Duration)?
    /// Whether the running handshake's message 1 carried the pairing code.
    var offeredCode = false
    /// The running handshake's deadline.
    var handshakeDeadline = Duration.zero
    /// Messages from the box's side that no box sends (a size no frame or message 2 has, a word the relay does not
    /// speak) since the running deadline (handshake, hello) started: a deadline that passes after them is the box
    /// misbehaving, not its silence. Another phone's traffic in the room has a box's shape and does not count.
    var junk = 0
    /// Whether anything arrived on this carrier at all (the foreground watchdog's proof that the path lives).
    var anythingArrived = false
    /// This Noise session's request ids.
    var requestIDs: RequestIDCounter

    init(generation: Int, firstRequestID: UInt32, dialStarted: Duration) {
        self.generation = generation
        self.dialStarted = dialStarted
        requestIDs = RequestIDCounter(first: firstRequestID)
    }
}
