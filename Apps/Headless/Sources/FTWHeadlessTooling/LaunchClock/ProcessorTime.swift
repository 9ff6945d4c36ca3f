import Foundation

/// The processor time this process has used so far, every thread, user and kernel: what a launch costs the phone,
/// which waiting behind other processes on a shared machine does not inflate as it inflates the wall clock.
enum ProcessorTime {
    /// Called once a launch's first content is drawn, and never inlined: callgrind's count of a launch ends where this
    /// function is entered (`--dump-before=*atFirstContent*`), as the C baseline's ends at `ftw_at_first_content`.
    ///
    /// - Returns: The processor time so far in milliseconds (`CLOCK_PROCESS_CPUTIME_ID`).
    @inline(never)
    static func atFirstContent() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1_000 + Double(now.tv_nsec) / 1_000_000
    }
}
