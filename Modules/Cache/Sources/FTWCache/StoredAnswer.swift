public import FTWSealInterface

/// An answer together with the name it was asked under and when it was asked: what a `LiveAsk` keeps and seals.
///
/// The age of an answer counts from when it was asked, on the wall clock, so it means the same after a kill and
/// relaunch as before.
public struct StoredAnswer<Answer: Sendable & SealedCodable & Equatable>: Sendable, Equatable {
    /// The box's answer.
    public var answer: Answer
    /// The name it was asked under; it stands while the model's current name equals this.
    public var name: AskName
    /// When it was asked, on the wall clock (Unix ms).
    public var askedAtMs: Int64

    /// Makes a stored answer.
    public init(answer: Answer, name: AskName, askedAtMs: Int64) {
        self.answer = answer
        self.name = name
        self.askedAtMs = askedAtMs
    }
}
