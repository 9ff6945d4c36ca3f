import BoxProtocol
import ClockSeam
import SessionInterface

/// A failed ask, remembered so that nothing asks again on the stream's beat: its name, whether the box refused it
/// outright, how many asks failed in a row, and the earliest time an ask that no person made may go again.
///
/// A failure that is not a refusal (a timeout, a lost carrier, an answer the model could not take) is asked again
/// only when someone starts looking again or the name changes; from the second failure in a row even those wait, one
/// minute doubling to thirty, so a box that cannot answer is not asked every time a view appears. A refusal is never
/// asked again under its name. A pull to refresh is a person's ask and is not held back.
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
        /// already keeps it off the beat and backs off when it repeats.
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

    /// The wait after the second failure in a row; it doubles with each further one.
    public static let backoffBase: Duration = .seconds(60)
    /// The longest wait.
    public static let backoffCap: Duration = .seconds(1_800)

    /// The name the last failed ask was made under.
    public private(set) var name: AskName
    /// Whether asking again may succeed (false for a refusal such as `E_UNKNOWN_OP`).
    public private(set) var retryable: Bool
    /// Asks failed in a row.
    public private(set) var count: Int
    /// The earliest wall-clock time (Unix ms) an ask no person made may go.
    public private(set) var notBeforeMs: Int64

    /// The first failure of a run.
    public init(name: AskName, verdict: Verdict, atMs: Int64) {
        self.name = name
        retryable = verdict.retryable
        count = 1
        notBeforeMs = atMs
    }

    /// The first failure of a run, judged from the error.
    public init(name: AskName, error: any Error, atMs: Int64) {
        self.init(name: name, verdict: Verdict(error), atMs: atMs)
    }

    /// One more failure in a row.
    public mutating func record(name: AskName, verdict: Verdict, atMs: Int64) {
        self.name = name
        retryable = verdict.retryable
        count += 1
        guard count >= 2 else {
            notBeforeMs = atMs
            return
        }
        let ceiling = min(Self.backoffCap, Self.backoffBase * (1 << min(count - 2, 16)))
        notBeforeMs = atMs + ceiling.wholeMilliseconds
    }

    /// One more failure in a row, judged from the error.
    public mutating func record(name: AskName, error: any Error, atMs: Int64) {
        record(name: name, verdict: Verdict(error), atMs: atMs)
    }

    /// Whether an ask no person made may go under `name` now.
    ///
    /// - Parameters:
    ///   - name: The name the ask would go under.
    ///   - startsLooking: Someone starts looking again (a view appears, the stream comes back); false on the beat.
    ///   - nowMs: Now on the wall clock (Unix ms), against the backoff's end.
    public func allows(_ name: AskName, startsLooking: Bool, nowMs: Int64) -> Bool {
        if name == self.name, !startsLooking || !retryable { return false }
        return nowMs >= notBeforeMs
    }
}
