/// The one shape of ftw-core's errors: a code a program switches on, one line a person reads, and the lower failure
/// the error stands for.
///
/// An error type states its codes and holds its code, message and cause (and a field of its own where it has one), in
/// the storage ``FTWStoredError`` writes once; how every error prints, compares and hashes is written here once, so the
/// errors of every module read and behave alike. The line is
/// the code and the message (`authenticationFailed: tag mismatch`); a type whose message is already the person's
/// sentence prints the message alone. The cause is kept as thrown for a program to look at: it is not part of
/// equality, and only the debug text prints it.
///
/// An app that shows errors through Foundation's `LocalizedError` can declare the conformance: ``errorDescription``
/// is the line.
public protocol FTWError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure an error is: an open set of named values, so adding one later breaks no caller's `switch`.
    associatedtype Code: Sendable, Hashable, CustomStringConvertible

    /// What kind of failure this is: what a program decides by.
    var code: Code { get }
    /// One line saying what happened: the thing concerned and what is wrong with it.
    var message: String { get }
    /// The lower layer's failure this one stands for, kept as thrown so a program can look at it; nil when there is
    /// none.
    var cause: (any Error)? { get }
}

extension FTWError {
    /// The code and the message, on one line.
    public var description: String { "\(code): \(message)" }

    /// The type, the code, the message and the cause, for a developer's log.
    public var debugDescription: String {
        let line = "\(Self.self).\(code): \(message)"
        guard let cause else { return line }
        return "\(line) (cause: \(String(reflecting: cause)))"
    }

    /// The line a person reads: ``description``, under the name Foundation's `LocalizedError` asks for.
    public var errorDescription: String? { description }

    /// Equal when the code and the message are: the cause is for looking at, not for deciding.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
