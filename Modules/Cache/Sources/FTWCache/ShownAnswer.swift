public import FTWClockSeam
public import FTWSealInterface

/// What a model's screen shows at one moment: the answer it holds (with the name it was asked under and when), and
/// otherwise why not: the box does not carry the read, or the last ask failed.
///
/// A value, so an observer can tell a change from a repeat; the failure is kept as its one-line description, which
/// is what a screen prints.
public struct ShownAnswer<Answer: Sendable & SealedCodable & Equatable>: Sendable, Equatable {
    /// The answer held, restored from the sealed file or asked this run; nil before any.
    public var stored: StoredAnswer<Answer>?
    /// False once the box refused the read outright (a path it does not carry): the feature is hidden, not an error.
    public var isAvailable: Bool
    /// Why the last ask failed, until an answer is recorded; nil while the feature is hidden.
    public var failure: String?
    /// Whether the answer was read back from the sealed file of an earlier run rather than answered on this one.
    public var fromSealedFile = false

    /// Makes a value.
    public init(stored: StoredAnswer<Answer>?, isAvailable: Bool, failure: String?) {
        self.stored = stored
        self.isAvailable = isAvailable
        self.failure = failure
    }

    /// The answer itself, if any.
    public var answer: Answer? { stored?.answer }

    /// How old the answer is at `nowMs` (wall clock, Unix ms), counted from when it was asked; nil before any.
    public func ageMs(nowMs: Int64) -> Int64? {
        stored.map { max(0, nowMs - $0.askedAtMs) }
    }

    /// When the answer was true and what that rests on: the moment it was answered on this run, or the one its
    /// sealed file recorded; unknown before any answer.
    public var asOf: AsOf {
        guard let stored else { return .unknown }
        return AsOf(moment: stored.askedAtMs, basis: fromSealedFile ? .sealedFile : .answered)
    }
}

extension ShownAnswer: CustomStringConvertible {
    /// One line: the answer's name and age, or why there is none.
    public var description: String {
        guard isAvailable else { return "not served by this box" }
        let held = stored.map(\.description) ?? "no answer yet"
        return failure.map { "\(held); the last ask failed: \($0)" } ?? held
    }
}
