import FTWClockSeam
import Foundation
import Testing

/// The integer readings the live loop and the models take several times a frame instead of `Date` and `Duration`
/// arithmetic: they must say what the slow ways say.
@Suite struct ClockReadingTests {
    /// `SystemWallClock` reads `CLOCK_REALTIME` straight; it must agree with Foundation's `Date` to the millisecond
    /// (read between two `Date`s, it lies between them, give or take the one millisecond by which `Date`'s `Double`
    /// of seconds, about 0.2 µs apart today, can round across a millisecond's edge).
    @Test func theSystemWallClockSaysWhatDateSays() {
        for _ in 0..<100 {
            let before = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            let read = SystemWallClock().nowMs
            let after = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            #expect(before - 1 <= read && read <= after + 1, "\(read) is not between \(before) and \(after)")
        }
    }

    /// Whole nanoseconds round toward zero, as whole milliseconds do, and clamp at `Int64`'s ends rather than trap.
    @Test func wholeNanosecondsRoundTowardZeroAndClamp() {
        #expect(Duration.milliseconds(1_500).wholeNanoseconds == 1_500_000_000)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 7_999_999_999).wholeNanoseconds == 7)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: -7_999_999_999).wholeNanoseconds == -7)
        #expect(Duration.seconds(Int64.max / 2).wholeNanoseconds == .max)
        #expect(Duration.seconds(Int64.min / 2).wholeNanoseconds == .min)
    }
}
