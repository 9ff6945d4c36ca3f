#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's wall clock: what the apps hand to the modules when they run for real.
///
/// - Important: Only `Apps/*` construct this; modules take a ``WallClock`` parameter with no default so a test can
///   always put time in its own hands.
public struct SystemWallClock: WallClock {
    /// Makes the system wall clock.
    public init() {}

    /// Now, in milliseconds since the Unix epoch, rounded down. Read from `CLOCK_REALTIME` straight, in integers:
    /// the client reads it several times a frame, and through `Date` each read cost three times as much.
    public var nowMs: Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
