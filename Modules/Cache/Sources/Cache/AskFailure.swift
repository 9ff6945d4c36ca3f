import BoxProtocol
import SessionInterface

/// A failed ask, remembered so that nothing asks again on the stream's beat: its name, whether the box refused it
/// outright, and where in the model's inputs it was learned.
///
/// A failure that is not a refusal (a timeout, busy, a lost carrier, an answer the model could not take) is asked
/// again only when someone starts looking again after it, or under a new name (cache.md §1). A look queued before the
/// failure was learned (the stream's return that waited behind the read on the wire) is no new look. A refusal is
/// never asked again under its name. There is no other backoff: these rules are the whole policy, and a pull to
/// refresh, a person's ask, is not held back by any of them.
public struct AskFailure: Sendable, Hashable {
    /// What a failure says about asking again, read from the error once so the rule never sees an error type.
    public struct Verdict: Sendable, Hashable {
        /// Whether asking again may succeed (false for a refusal such as `E_UNKNOWN_OP`).
        public var retryable: Bool
        /// Whether the box said it does not carry the read at all (`E_UNKNOWN_OP`).
        public var missingRoute: Bool

        /// Makes a verdict.
        public init(retryable: Bool, missingRoute: Bool = false) {
            self.retryable = retryable
            self.missingRoute = missingRoute
        }

        /// The verdict on `error`: the session's error decides when the read failed; a model's own error means the
        /// answer came and could not be taken.
        ///
        /// Only the box's own non-retryable error is a refusal. Every other failure is retryable, an answer the
        /// model could not take included (a price window whose slots do not add up, a body that is not the JSON a
        /// model reads): the box's next answer may differ (tomorrow's rates, a mended setting), and the failure rule
        /// already keeps it off the beat.
        public init(_ error: any Error) {
            guard let session = error as? SessionError else {
                self.init(retryable: true)
                return
            }
            self.init(
                retryable: session.isRetryable || session.code != .box,
                missingRoute: session.box?.code == .unknownOp
            )
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
