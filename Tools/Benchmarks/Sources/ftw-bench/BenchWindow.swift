import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The stretch of a run a benchmark counts: everything the process does between ``open()`` and ``close()``, on
/// every thread.
///
/// Three counters read it. Callgrind zeroes its counts on entering `ftw_bench_window_open` and dumps them on
/// entering `ftw_bench_window_close` (``Callgrind``), so instructions and allocations cover the window alone;
/// `getrusage` gives the context switches and CPU time; and `perf stat`, when the run is started under it with
/// `--control` (``PerfStat``), is enabled and disabled at the edges, for the system calls. Outside a counter the
/// edges cost two calls.
enum BenchWindow {
    /// What `getrusage` says of the whole process, at an edge.
    struct Usage: Sendable {
        /// Voluntary and involuntary context switches so far.
        var contextSwitches: Int
        /// User and system CPU time so far, in microseconds.
        var cpuMicroseconds: Int

        /// The process's usage now.
        static var now: Usage {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let cpu =
                (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
                + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
            return Usage(contextSwitches: usage.ru_nvcsw + usage.ru_nivcsw, cpuMicroseconds: cpu)
        }

        /// The usage from `start` to this one.
        func since(_ start: Usage) -> Usage {
            Usage(
                contextSwitches: contextSwitches - start.contextSwitches,
                cpuMicroseconds: cpuMicroseconds - start.cpuMicroseconds
            )
        }
    }

    /// Opens the window: perf counting on, callgrind's counts zeroed; returns the usage at the edge.
    static func open() -> Usage {
        primeOnce
        PerfStat.control("enable")
        let usage = Usage.now
        windowOpen()
        return usage
    }

    /// Callgrind does not zero its counts the first time it enters the opening edge (it learns the function's name
    /// then), so the first window would count everything since the start. One empty window first takes that; its
    /// dump starts at basic block 0, and ``Callgrind`` leaves it out.
    private static let primeOnce: Void = {
        windowOpen()
        windowClose()
    }()

    /// Closes the window opened when the usage was `start`; returns the usage inside it.
    static func close(since start: Usage) -> Usage {
        windowClose()
        let usage = Usage.now.since(start)
        PerfStat.control("disable")
        return usage
    }
}

/// Edges callgrind finds by name (`--zero-before`, `--dump-before`): never inlined, each leaving a trace so the
/// optimiser keeps the call, and different from each other, or the linker folds the two into one address and
/// callgrind sees every edge as both.
private let opened = Atomic<Int>(0)
private let closed = Atomic<Int>(0)

@inline(never) @_silgen_name("ftw_bench_window_open")
func windowOpen() {
    opened.add(1, ordering: .relaxed)
}

@inline(never) @_silgen_name("ftw_bench_window_close")
func windowClose() {
    closed.add(1, ordering: .relaxed)
}
