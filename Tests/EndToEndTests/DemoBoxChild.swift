import FTWFixtures
import FTWSpawning
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `ftw-demobox` process, as a person starts it in a terminal: its printed lines as a stream, stopped with
/// SIGTERM like Ctrl-C. A watchdog kills it after a minute (or the lifetime a test gives it), which ends its lines, so
/// a test waiting on a line that never comes fails rather than hangs.
final class DemoBoxChild: @unchecked Sendable {
    /// The demo box beside the test bundle, in the build's products folder; nil when it is not built.
    static let executable = BuiltProduct.found("ftw-demobox")

    private let process = ChildProcess()
    private let exited: AsyncStream<Int32>
    private let errorText = ErrorText()
    /// Every line the box prints on stdout, until it exits.
    let lines: AsyncStream<String>

    /// Starts `ftw-demobox --port 0`, with `--state STATE` when `state` is given, then `options` (by default
    /// ``WallClockRelay/options``: the hour turned at once); with `descriptorLimit`, from a shell that lowers
    /// `ulimit -n` to it first (the test process keeps its own limit).
    init(
        executable: URL,
        state: URL?,
        options: [String] = WallClockRelay.options,
        descriptorLimit: Int? = nil,
        lifetime: Duration = .seconds(60)
    ) throws {
        let output = Pipe()
        let arguments =
            ["--port", "0"] + (state.map { ["--state", $0.path(percentEncoded: false)] } ?? []) + options
        if let descriptorLimit {
            process.executableURL = URL(filePath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", executable.path(percentEncoded: false)]
                + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        let (exited, exit) = AsyncStream.makeStream(of: Int32.self)
        self.exited = exited
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        try process.run()
        Thread.detachNewThread {
            Self.read(output.fileHandleForReading, into: sink)
        }
        Thread.detachNewThread { [errorText] in
            errorText.collect(errors.fileHandleForReading)
        }
        let pid = process.processIdentifier
        Task {
            try await ContinuousClock().sleep(for: lifetime)
            _ = kill(pid, SIGKILL)
        }
    }

    /// Whether the box is still running.
    var isRunning: Bool { process.isRunning }

    /// How many threads the box's process has now (Linux: its `/proc` entry); nil once it is gone.
    var threadCount: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task"))?.count
    }

    /// What the box printed on stderr so far: why it stopped, when it did.
    var standardError: String { errorText.text }

    /// Sends SIGTERM and waits for the exit status.
    func stop() async -> Int32? {
        _ = kill(process.processIdentifier, SIGTERM)
        for await status in exited { return status }
        return nil
    }

    /// The first line from `iterator` that `matches`, or nil when the box's output ends first.
    static func line(
        _ iterator: inout AsyncStream<String>.Iterator,
        where matches: (String) -> Bool
    ) async -> String? {
        while let line = await iterator.next() {
            if matches(line) { return line }
        }
        return nil
    }

    /// Yields each line of `handle` into `sink` until its end (on the calling thread), then finishes it: a child's
    /// output as a stream, for any child a test starts.
    static func read(_ handle: FileHandle, into sink: AsyncStream<String>.Continuation) {
        var buffer: [UInt8] = []
        while true {
            let data = handle.availableData
            if data.isEmpty { break }
            buffer += data
            while let newline = buffer.firstIndex(of: 10) {
                sink.yield(String(decoding: buffer[..<newline], as: UTF8.self))
                buffer.removeSubrange(...newline)
            }
        }
        sink.finish()
    }
}

/// A child's stderr, gathered on its own thread so a test can say why the child stopped.
final class ErrorText: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    func collect(_ handle: FileHandle) {
        while true {
            let data = handle.availableData
            if data.isEmpty { return }
            lock.withLock { bytes += data }
        }
    }
}
