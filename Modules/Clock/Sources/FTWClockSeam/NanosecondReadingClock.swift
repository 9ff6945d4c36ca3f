#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A clock that also reads its time as whole nanoseconds in an `Int64`: what a live loop's deadline arithmetic takes
/// before each of its waits, where a generic read and `Duration`'s 128-bit arithmetic cost more than the rest of the
/// wait's work (about 1 k instructions a live frame).
public protocol NanosecondReadingClock: Clock<Duration> {
    /// Now, in whole nanoseconds since an origin of the clock's own: only differences between two reads mean anything.
    var nowNanoseconds: Int64 { get }
}

extension ContinuousClock: NanosecondReadingClock {
    /// Now on the clock's own axis, read in integers: `CLOCK_BOOTTIME` on Linux, which goes on through a suspension
    /// as the continuous clock does; `CLOCK_MONOTONIC_RAW` elsewhere.
    public var nowNanoseconds: Int64 {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_BOOTTIME, &now)
        #else
        clock_gettime(CLOCK_MONOTONIC_RAW, &now)
        #endif
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
