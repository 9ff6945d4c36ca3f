import FTWSpawning
import Foundation

/// `perf stat` around a child's ``BenchWindow``: the system calls (`raw_syscalls:sys_enter`) and context switches of
/// every thread of the child, counted only while its window is open.
///
/// The child is started under `perf stat --control fifo:…` with counting off (`-D -1`); its window's edges write
/// `enable` and `disable` to the control FIFO and wait for perf's `ack`, so nothing outside the window is counted.
/// Hardware counters are not needed (this VM has none); the events are software ones and a tracepoint, which need
/// `perf_event_paranoid` ≤ 1 or root.
enum PerfStat {
    /// What perf counted in the window.
    struct Counts: Sendable {
        var syscalls: Int
        var contextSwitches: Int
    }

    private static let controlVariable = "FTW_BENCH_PERF_CONTROL"
    private static let ackVariable = "FTW_BENCH_PERF_ACK"

    /// The child's end of the FIFOs, opened on the first edge.
    private static let channel: (control: FileHandle, ack: FileHandle)? = {
        let environment = ProcessInfo.processInfo.environment
        guard let control = environment[controlVariable], let ack = environment[ackVariable],
            let controlHandle = FileHandle(forWritingAtPath: control), let ackHandle = FileHandle(forReadingAtPath: ack)
        else { return nil }
        return (controlHandle, ackHandle)
    }()

    /// Sends `command` to the perf that started this process, if one did, and waits for its answer.
    static func control(_ command: String) {
        guard let channel else { return }
        channel.control.write(Data((command + "\n").utf8))
        _ = channel.ack.availableData
    }

    /// Whether `perf` is installed and may count system calls here.
    static var available: Bool {
        guard let perf = Tool.find("perf") else { return false }
        let probe = ChildProcess()
        probe.executableURL = perf
        probe.arguments = ["stat", "-x,", "-e", "raw_syscalls:sys_enter", "--", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        return probe.terminationStatus == 0
    }

    /// Runs `command` natively, under perf when it may count, and waits for it; returns what it printed and the
    /// system calls and context switches of its window (nil without perf).
    static func run(_ command: [String], folder: URL) throws -> (output: String, counts: Counts?) {
        guard available, let perf = Tool.find("perf") else { return (try Tool.output(of: command), nil) }
        let control = folder.appending(path: "perf-control").path
        let ack = folder.appending(path: "perf-ack").path
        for fifo in [control, ack] { mkfifo(fifo, 0o600) }
        let child = ChildProcess()
        child.executableURL = perf
        child.arguments =
            [
                "stat", "-x,", "-e", "raw_syscalls:sys_enter,context-switches", "--control", "fifo:\(control),\(ack)",
                "-D", "-1", "-o", folder.appending(path: "perf.out").path, "--",
            ] + command
        var environment = ProcessInfo.processInfo.environment
        environment[controlVariable] = control
        environment[ackVariable] = ack
        child.environment = environment
        let pipe = Pipe()
        child.standardOutput = pipe
        // perf says "Events enabled" on its standard error at every edge.
        child.standardError = FileHandle.nullDevice
        try child.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        return (output, counts(in: folder))
    }

    /// The counts perf wrote in `folder`, or nil when it wrote none.
    private static func counts(in folder: URL) -> Counts? {
        guard let text = try? String(contentsOf: folder.appending(path: "perf.out"), encoding: .utf8) else {
            return nil
        }
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 2, let value = Int(fields[0]) else { continue }
            counts[String(fields[2])] = value
        }
        guard let syscalls = counts["raw_syscalls:sys_enter"], let switches = counts["context-switches"] else {
            return nil
        }
        return Counts(syscalls: syscalls, contextSwitches: switches)
    }
}
