/// The wall clock as Unix milliseconds: the one seam through which modules learn what time a person would read.
///
/// Monotonic time and sleeping go through a `Clock<Duration>`; wall time is only ever asked for "now", so this
/// protocol offers nothing else (the same split as swift-distributed-tracing's `TracerClock`). Price slots, history
/// windows and the age of a sealed answer are wall-clock values; box ages are box uptime, never this.
public protocol WallClock: Sendable {
    /// Now, in milliseconds since the Unix epoch.
    var nowMs: Int64 { get }
}
