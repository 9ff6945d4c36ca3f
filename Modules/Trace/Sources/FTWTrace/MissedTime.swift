/// The time the app missed: from the newest point read back from the ring file to the first live point after it,
/// which a chart draws as a marked gap between the restored curve and the live one.
public struct MissedTime: Sendable, Hashable {
    /// The newest restored point (Unix ms).
    public var fromMs: Int64
    /// The first live point after it (Unix ms); nil while none has come, so the gap still grows.
    public var untilMs: Int64?

    /// Makes a span.
    public init(fromMs: Int64, untilMs: Int64?) {
        self.fromMs = fromMs
        self.untilMs = untilMs
    }

    /// How long the gap is at `nowMs`: to its end, or to `nowMs` while it is open.
    public func duration(nowMs: Int64) -> Duration {
        .milliseconds(max(0, (untilMs ?? nowMs) - fromMs))
    }
}
