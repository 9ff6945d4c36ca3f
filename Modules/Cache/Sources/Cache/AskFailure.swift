import ClockSeam
public import SessionInterface

/// A failed ask, remembered so that nothing asks again on the stream's beat: its name, whether the box refused it
/// outright, how many asks failed in a row, and the earliest time an ask that no person made may go again.
///
/// A failure that is not a refusal (a timeout, a lost carrier) is asked again only when someone starts looking
/// again or the name changes; from the second failure in a row even those wait, one minute doubling to thirty, so
/// a box that cannot answer is not asked every time a view appears. A refusal is never asked again under its name.
/// A pull to refresh is a person's ask and is not held back.
public struct AskFailure: Sendable, Hashable {
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
    public init(name: AskName, error: SessionError, atMs: Int64) {
        self.name = name
        retryable = Self.isRetryable(error)
        count = 1
        notBeforeMs = atMs
    }

    /// One more failure in a row.
    public mutating func record(name: AskName, error: SessionError, atMs: Int64) {
        self.name = name
        retryable = Self.isRetryable(error)
        count += 1
        guard count >= 2 else {
            notBeforeMs = atMs
            return
        }
        let ceiling = min(Self.backoffCap, Self.backoffBase * (1 << min(count - 2, 16)))
        notBeforeMs = atMs + ceiling.wholeMilliseconds
    }

    /// Whether an ask no person made may go under `name` now.
    ///
    /// - Parameters:
    ///   - startsLooking: Someone starts looking again (a view appears, the stream comes back); false on the beat.
    public func allows(_ name: AskName, startsLooking: Bool, nowMs: Int64) -> Bool {
        if name == self.name, !startsLooking || !retryable { return false }
        return nowMs >= notBeforeMs
    }

    /// A refusal of the request itself (the box's own non-retryable error) is not tried again under its name.
    private static func isRetryable(_ error: SessionError) -> Bool {
        error.isRetryable || error.code != .box
    }
}
