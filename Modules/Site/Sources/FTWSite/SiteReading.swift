public import FTWSealInterface
public import FTWSessionInterface

/// A typed answer of one site read: what a ``SiteReadModel`` holds and seals.
public protocol SiteReading: Sendable, SealedCodable, Equatable {
    /// The read it answers.
    static var kind: SiteReadKind { get }

    /// Takes the box's answer.
    ///
    /// - Throws: ``SiteError`` when the status is not 2xx or the body is not what the model reads; such an answer is
    ///   never recorded.
    init(response: APIResponse) throws(SiteError)
}
