public import FTWBoxProtocol
import FTWBus
import FTWSessionInterface

/// A failed ask, remembered so that nothing asks again on the stream's beat: its name, whether the box refused it
/// outright, and where in the model's inputs it was learned.
///
/// A failure that is not a refusal (a timeout, busy, a lost carrier, an answer the model could not take, any other
/// error of the box's) is asked again only when someone starts looking again after it, or under a new name (cache.md
/// §1). A look queued before the failure was learned (the stream's return that waited behind the read on the wire) is
/// no new look. A refusal is never asked again under its name. There is no other backoff: these rules are the whole
/// policy, and a pull to refresh, a person's ask, is not held back by any of them.
public struct AskFailure: Sendable, Hashable {
    /// What a failure says about asking again, read from the error once so the rule never sees an error type.
    public struct Verdict: Sendable, Hashable {
        /// Whether asking again may succeed (false for a refusal such as `E_UNKNOWN_OP`).
        public var retryable: Bool
        /// Whether the box said its build does not carry the read (``refusals``): remembered with the build.
        public var missingRoute: Bool

        /// The box's codes that say its build does not carry the read, so the same build cannot answer otherwise
        /// (cache.md §1: "it does not carry the route"): `E_UNKNOWN_OP` (no handler claims the path, or the request's
        /// shape is not one the box reads) and the passthrough gate's refusals of a route by the tier declared beside
        /// its handler, before any handler runs and whatever the method (protocol.md §7.3): `E_USE_CMD` (actuate),
        /// `E_LOCAL_ONLY` (local, or a tier the gate does not know), `E_WHOLE_DOCUMENT` (a configure route that
        /// replaces a whole document).
        ///
        /// No other code is: `E_SCOPE_DENIED` follows the grant's role, which the box re-reads on every request and
        /// an owner may change at any time; `E_GRANT_REVOKED` ends the session; `E_PRECONDITION`, `E_CONFLICT` and
        /// `E_CMD_EXPIRED` judge a command against the state of the moment; `E_UNSUPPORTED_MEDIA` the type of the
        /// answer a handler gave this time; the retryable codes are retryable; and a code this client does not know
        /// says nothing of the build. Remembering any of them would keep a read the box may answer from being asked
        /// again, even by a person's pull.
        public static let refusals: Set<ErrorCode> = [.unknownOp, .useCommand, .localOnly, .wholeDocument]

        /// Makes a verdict.
        public init(retryable: Bool, missingRoute: Bool = false) {
            self.retryable = retryable
            self.missingRoute = missingRoute
        }

        /// The verdict on `error`: the session's error decides when the read failed; a model's own error means the
        /// answer came and could not be taken.
        ///
        /// Only the box's own error with a code of ``refusals`` is a refusal. Every other failure is retryable, the
        /// box's other errors and an answer the model could not take included (a price window whose slots do not
        /// add up, a body that is not the JSON a model reads): the box's next answer may differ (tomorrow's rates, a
        /// mended setting, a grant given a role), and the failure rule already keeps it off the beat.
        public init(_ error: any Error) {
            guard let session = error as? SessionError, session.code == .box, let body = session.box,
                Self.refusals.contains(body.code)
            else {
                self.init(retryable: true)
                return
            }
            self.init(retryable: false, missingRoute: true)
        }
    }

    /// The name the last failed ask was made under.
    public private(set) var name: AskName
    /// Whether asking again may succeed (false for a refusal such as `E_UNKNOWN_OP`).
    public private(set) var retryable: Bool
    /// The place (``AskInbox``) of the last input queued when the failure was learned: a look at or before it was
    /// queued before the failure.
    public private(set) var learnedAt: Int

    /// A failure of an ask under `name`, learned when the inputs up to `learnedAt` were queued.
    public init(name: AskName, verdict: Verdict, learnedAt: Int) {
        self.name = name
        retryable = verdict.retryable
        self.learnedAt = learnedAt
    }

    /// A failure, judged from the error.
    public init(name: AskName, error: any Error, learnedAt: Int) {
        self.init(name: name, verdict: Verdict(error), learnedAt: learnedAt)
    }

    /// Whether an input at `place` in which someone starts looking again came after the failure: one queued before
    /// it (the stream's return that waited behind the read) is no new look.
    public func isNewLook(at place: Int) -> Bool { place > learnedAt }

    /// Whether an ask no person made may go under `name` now.
    ///
    /// - Parameters:
    ///   - name: The name the ask would go under.
    ///   - looksAgain: Someone starts looking again after the failure (``isNewLook(at:)``); false on the beat.
    public func allows(_ name: AskName, looksAgain: Bool) -> Bool {
        name != self.name || (looksAgain && retryable)
    }
}
