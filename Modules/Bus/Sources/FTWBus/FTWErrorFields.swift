/// The code, the message and the cause of an ``FTWStoredError``: the storage every coded error of ftw-core holds,
/// written once so that an error type declares only its codes (and a field of its own where it has one).
public struct FTWErrorFields<Code: Sendable & Hashable & CustomStringConvertible>: Sendable {
    /// What kind of failure this is: what a program decides by.
    public var code: Code
    /// One line saying what happened; each error type's documentation says whose words it is in.
    public var message: String
    /// The lower layer's failure the error stands for, kept as thrown so a program can look at it; nil when there is
    /// none.
    public var cause: (any Error)?

    /// The fields of an error with `code` and `message`, standing for `cause` when there is one.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
