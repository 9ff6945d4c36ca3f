/// One step of the connection's timeline in a stay: each attempt's dial, handshake, `hello_ok`, the stream going live
/// and stale, and each close with the next try it waits for, with its time on the scenario's clock, so the backoff
/// between attempts, the handshake and hello deadlines, the wake watchdog and the stream's gap rule can be read from
/// outside.
public struct ConnectionStep: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A carrier is being opened (``ConnectionStep/attempt`` counts the tries since the last delivered frame).
        case dial
        /// The carrier is in this hour's room before the relay has moved the box there (the hour's turn):
        /// ``ConnectionStep/boxMovesAtMs`` and ``ConnectionStep/boxDueByMs`` say between when it will.
        case awaitingBox = "awaiting_box"
        /// The relay said the box is in the room, and the Noise handshake started.
        case handshake
        /// The box answered hello (``ConnectionStep/build`` is its build).
        case helloOK = "hello_ok"
        /// The stream went live: its first beat after `hello_ok`, or the first after a silence (``ConnectionStep/cause``).
        case live
        /// No beat within the stream's gap rule (3.5 beats): stale from this moment (``ConnectionStep/cause`` names the
        /// last beat).
        case stale
        /// The connection ended, or waits in an empty room (``ConnectionStep/reason``; ``ConnectionStep/code`` when
        /// the carrier closed with one).
        case close
        /// The phone's network changed (`network change`): a dial or backoff in progress gives way to a dial at once,
        /// a live stream is checked.
        case networkChange = "network_change"
    }

    /// When, Unix ms.
    public var atMs: Int64
    /// What happened.
    public var kind: Kind
    /// The dial's attempt number: 1 on a return, more after failures.
    public var attempt: Int?
    /// `hello_ok.box.build`.
    public var build: String?
    /// The carrier's close code (1000 a phone's own close, 1001 a proxy restart, 1006 a lost network, 4409 a wrong
    /// epoch, 4410 a rotation, 4429 busy); absent when no carrier closed (a deadline, the background).
    public var code: Int?
    /// The close frame's reason as the relay sent it (the epoch of a 4409 or 4410, `slow down`).
    public var closeReason: String?
    /// Why the connection ended, as the session says it.
    public var reason: String?
    /// The earliest the relay moves the box to this hour's room, Unix ms (an ``Kind/awaitingBox`` step).
    public var boxMovesAtMs: Int64?
    /// The latest the box should be in this hour's room, Unix ms (an ``Kind/awaitingBox`` step): the relay moves it on
    /// its next heartbeat, up to a beat after ``boxMovesAtMs``, and the box rejoins within 5 s.
    public var boxDueByMs: Int64?
    /// For a ``Kind/close`` after which the session backs off: when it dials again, Unix ms.
    public var nextTryAtMs: Int64?
    /// For a ``Kind/close`` after which the session backs off: the attempt that dial will be.
    public var nextAttempt: Int?
    /// Why the stream went ``Kind/live`` or ``Kind/stale``.
    public var cause: String?

    /// Makes a step.
    public init(
        atMs: Int64,
        kind: Kind,
        attempt: Int? = nil,
        build: String? = nil,
        code: Int? = nil,
        closeReason: String? = nil,
        reason: String? = nil,
        boxMovesAtMs: Int64? = nil,
        boxDueByMs: Int64? = nil,
        cause: String? = nil
    ) {
        self.atMs = atMs
        self.kind = kind
        self.attempt = attempt
        self.build = build
        self.code = code
        self.closeReason = closeReason
        self.reason = reason
        self.boxMovesAtMs = boxMovesAtMs
        self.boxDueByMs = boxDueByMs
        self.cause = cause
    }
}
