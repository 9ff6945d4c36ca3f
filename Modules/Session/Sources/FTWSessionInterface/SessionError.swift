public import FTWBoxProtocol
public import FTWBus

/// Why a request or the session itself failed: the one error type of the session.
///
/// A caller mostly needs to know whether anything was answered: every code but `.box` means the box's answer never
/// arrived, so nothing may be recorded as answered; `.box` carries the box's own `error` body, typed.
///
/// Its `message` is one line saying what happened, in the words a person reads; its `cause` is the lower layer's error
/// it stands for (a socket's, a TLS handshake's), not part of equality, which is what the session decides by.
public struct SessionError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case carrierLost, timeout, box, terminated, incompatibleProtocol, handshakeFailed, dialFailed, helloRefused
            case responseTooLarge, malformedAnswer, cancelled, requestTooLarge
            case relayUnreachable, relayNotTrusted, boxOffline, handshakeUnanswered, slowLink, helloUnanswered, refused
            case boxMisbehaved, relaySlowDown
        }

        private let value: Value

        /// The carrier dropped while the request was pending; it was settled unanswered.
        public static let carrierLost = Code(value: .carrierLost)
        /// The box stayed silent past the request's deadline.
        public static let timeout = Code(value: .timeout)
        /// The box answered with an `error` frame for this request (see ``SessionError/box``).
        public static let box = Code(value: .box)
        /// The box ended the session (`session.terminate`), with the reason in the message.
        public static let terminated = Code(value: .terminated)
        /// The box's protocol range does not overlap ours.
        public static let incompatibleProtocol = Code(value: .incompatibleProtocol)
        /// The Noise handshake could not start: the session's own keys are unusable.
        public static let handshakeFailed = Code(value: .handshakeFailed)
        /// No carrier could be opened, for a reason none of the codes below names.
        public static let dialFailed = Code(value: .dialFailed)
        /// Nothing listens where the relay should be (connection refused, no route, a name that does not resolve):
        /// the relay address is wrong or the relay is down, not the box.
        public static let relayUnreachable = Code(value: .relayUnreachable)
        /// The relay's TLS identity did not verify: its certificate is untrusted, expired or names another host, or a
        /// plain-text server answers on the `wss://` port. Dialling again changes nothing; the relay address or the
        /// trusted CA must change.
        public static let relayNotTrusted = Code(value: .relayNotTrusted)
        /// The relay is up but the box is not in its room (no `ready`, or `gone`): the box is offline.
        public static let boxOffline = Code(value: .boxOffline)
        /// The box is in the room and the link is quiet, yet our handshake went unanswered: the box may be busy or
        /// restarting. Once only; a box that stays silent to several handshakes in a row reads as ``refused``.
        public static let handshakeUnanswered = Code(value: .handshakeUnanswered)
        /// No answer in time, on a link too slow to tell that from a refusal: a deadline passed while a message was
        /// still arriving, on a link whose relay took too long to let the phone into its room for the deadline to
        /// judge a silence, or the relay's own upgrade timed out.
        public static let slowLink = Code(value: .slowLink)
        /// The box's side of the room sent what no box sends (messages of a size no frame or handshake has, words
        /// the relay does not speak) and no answer: not a silence, so never read as a refusal.
        public static let boxMisbehaved = Code(value: .boxMisbehaved)
        /// The relay closed the join with 4429 `slow down`: this address has used its joins for the relay's window
        /// (30 a minute, shared by a household's box and phones behind one address). Joins refused within a window
        /// cost nothing more, so the session tries again every few seconds and is in once the window turns.
        public static let relaySlowDown = Code(value: .relaySlowDown)
        /// The Noise handshake finished but the box did not answer `hello` in time.
        public static let helloUnanswered = Code(value: .helloUnanswered)
        /// The box answered `hello` with a session-wide `E_UNKNOWN_OP`: it refused this app's greeting at once.
        public static let helloRefused = Code(value: .helloRefused)
        /// The box stayed silent to several handshakes in a row while it was in the room and the link was quiet and
        /// quick enough for the silence to mean something: the way a box refuses a phone it no longer knows
        /// (protocol.md §8.1), the one failure that means "pair again". For a pairing code: the code was met by
        /// such a silence, and so was a greeting as a known device after it, so the box neither took the code nor
        /// enrolled this phone with it.
        public static let refused = Code(value: .refused)
        /// The API answer passed the size ceiling (`api.end.truncated`).
        public static let responseTooLarge = Code(value: .responseTooLarge)
        /// The answer arrived but was not what the request expects (chunks out of order, no `api.head`).
        public static let malformedAnswer = Code(value: .malformedAnswer)
        /// The caller went away (task cancelled) before the answer came.
        public static let cancelled = Code(value: .cancelled)
        /// The request does not fit a frame (a command past the lane 0 bucket, a body past 16 KiB); it was not sent.
        public static let requestTooLarge = Code(value: .requestTooLarge)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>
    /// The box's own error body when the code is `.box`.
    public var box: ErrorBody?
    /// True when the caller asked while an equal read was already on the wire and shared it: the failure is that
    /// read's, and no request of the caller's own was sent (a person's pull then sends one, once: cache.md §1). False
    /// for a read the caller's ask sent or put first, queued when it asked. Not part of equality.
    public var sharedOnWire = false

    /// Makes an error of these fields, with no box body; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one
    /// callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }

    /// Makes an error carrying the box's own body: the initialiser of the shape, with the field this type adds.
    public init(_ code: Code, _ message: String, box: ErrorBody?, cause: (any Error)? = nil) {
        self.init(fields: FTWErrorFields(code, message, cause: cause))
        self.box = box
    }

    /// Equal when the code, the message and the box's body are: the cause is for looking at, not for deciding.
    public static func == (lhs: SessionError, rhs: SessionError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.box == rhs.box
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(box)
    }

    /// Whether trying again later may succeed: the box says so for its own errors; a lost carrier or a silence
    /// always may; a refusal of the request itself never does.
    public var isRetryable: Bool {
        if let box { return box.retryable }
        return Self.retryableCodes.contains(code)
    }

    private static let retryableCodes: Set<Code> = [
        .carrierLost, .timeout, .dialFailed, .handshakeFailed, .relayUnreachable, .boxOffline, .handshakeUnanswered,
        .slowLink, .helloUnanswered, .boxMisbehaved, .relaySlowDown,
    ]

    /// The message alone: the line a person reads says what happened, not the code's name (``/FTWBus/FTWStoredError/code`` is for
    /// deciding).
    public var description: String { message }
}
