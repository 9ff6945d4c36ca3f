/// The wait before the session dials again after a connection ended: when, which attempt, and why.
///
/// Everything an app needs to say "reconnecting in 3 s" is here: the session has already chosen the moment (its
/// jittered backoff), so a screen counts down to ``nextTryAtMs`` on the wall clock and names ``because``.
public struct RetryWait: Sendable, Hashable {
    /// When the next dial starts, on the wall clock (Unix ms).
    public var nextTryAtMs: Int64
    /// The attempt that dial will be (2 after one failure since the last delivered frame, …).
    public var attempt: Int
    /// Why the last connection ended: what a person is told the wait is for.
    public var because: SessionError

    /// Makes a wait.
    ///
    /// - Parameters:
    ///   - nextTryAtMs: When the next dial starts, Unix ms.
    ///   - attempt: The attempt number of that dial.
    ///   - because: Why the last connection ended.
    public init(nextTryAtMs: Int64, attempt: Int, because: SessionError) {
        self.nextTryAtMs = nextTryAtMs
        self.attempt = attempt
        self.because = because
    }
}
