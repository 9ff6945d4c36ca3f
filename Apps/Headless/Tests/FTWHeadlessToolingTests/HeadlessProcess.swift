import FTWFixtures
import FTWSpawning
import Foundation

/// `ftw-headless` run as a person runs it: a child process, its exit status and the lines it printed.
///
/// The child writes into files rather than pipes: reading a pipe to its end can be interrupted (EINTR), which
/// Foundation turns into a crash of the whole test process.
struct HeadlessProcess {
    /// How a child is started: as another program's last argument, in another environment, within a time.
    struct Launch: Sendable {
        /// A program that runs `ftw-headless` (`setpriv …` to run it as another user); none to run it directly.
        var launcher: [String] = []
        /// The environment; nil for this process's.
        var environment: [String: String]?
        /// The current folder; nil for this process's.
        var directory: URL?
        /// How long the child may run before it is stopped (and reported as status -1).
        var within: Duration = .seconds(120)
    }

    let status: Int32
    let output: String
    let errorOutput: String

    /// Runs `ftw-headless` with `arguments` and waits for it to exit, on a thread of its own.
    static func run(_ arguments: [String], _ launch: Launch = Launch()) async throws -> HeadlessProcess {
        try await OwnThread.run { try runBlocking(arguments, launch) }
    }

    private static func runBlocking(_ arguments: [String], _ launch: Launch) throws -> HeadlessProcess {
        let scratch = try ScratchFolder()
        let outputPath = try scratch.file("stdout", "")
        let errorPath = try scratch.file("stderr", "")
        let process = ChildProcess()
        let program = BuiltProduct.url("ftw-headless")
        process.executableURL = launch.launcher.first.map { URL(fileURLWithPath: $0) } ?? program
        process.arguments =
            launch.launcher.isEmpty ? arguments : launch.launcher.dropFirst() + [program.path] + arguments
        if let environment = launch.environment { process.environment = environment }
        if let directory = launch.directory { process.currentDirectoryURL = directory }
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let seconds = Double(launch.within / .milliseconds(1)) / 1_000
        let timedOut = exited.wait(timeout: .now() + seconds) == .timedOut
        if timedOut {
            process.terminate()
            exited.wait()
        }
        return HeadlessProcess(
            status: timedOut ? -1 : process.terminationStatus,
            output: try String(contentsOfFile: outputPath, encoding: .utf8),
            errorOutput: try String(contentsOfFile: errorPath, encoding: .utf8)
        )
    }
}
