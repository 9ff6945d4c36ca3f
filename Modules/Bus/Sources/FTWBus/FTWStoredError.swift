/// An ``FTWError`` that keeps its code, message and cause in one ``FTWErrorFields``: the storage, the accessors and
/// the initialiser every coded error shares are written here once, and an error type declares only its codes, its
/// ``fields`` and ``init(fields:)``.
///
/// The accessors and the initialiser are requirements, with default implementations, so generic code over any
/// stored error can set a field or make one. Being written here, they are FTWBus's members: under the
/// `MemberImportVisibility` feature a file that reads `error.code` or writes `SealError(.io, "…")` imports FTWBus
/// (or FTWClient, which re-exports it), as this package's files do.
public protocol FTWStoredError: FTWError {
    /// The code, the message and the cause, in the one storage every coded error shares.
    var fields: FTWErrorFields<Code> { get set }

    /// What kind of failure this is: what a program decides by, and settable like the rest of the error.
    var code: Code { get set }
    /// One line saying what happened; the error type's documentation says whose words it is in.
    var message: String { get set }
    /// The lower layer's failure this one stands for, kept as thrown so a program can look at it; nil when there is
    /// none. Not part of equality.
    var cause: (any Error)? { get set }

    /// Makes an error of these fields: the one initialiser an error type writes, which ``init(_:_:cause:)`` calls.
    init(fields: FTWErrorFields<Code>)

    /// Makes an error of `code` and `message`, standing for `cause` when there is one.
    init(_ code: Code, _ message: String, cause: (any Error)?)
}

extension FTWStoredError {
    /// The code, read and written in ``fields``.
    public var code: Code {
        get { fields.code }
        set { fields.code = newValue }
    }

    /// The message, read and written in ``fields``.
    public var message: String {
        get { fields.message }
        set { fields.message = newValue }
    }

    /// The cause, read and written in ``fields``.
    public var cause: (any Error)? {
        get { fields.cause }
        set { fields.cause = newValue }
    }

    /// Makes an error of `code` and `message`, standing for `cause` when there is one (none by default).
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.init(fields: FTWErrorFields(code, message, cause: cause))
    }
}
