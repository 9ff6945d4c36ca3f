import Fixtures
import Foundation
import Spawning

/// `ftw-headless` run as a person runs it: a child process, its exit status and the lines it printed.
///
/// The child writes into files rather than pipes: reading a pipe to its end can be interrupted (EINTR), which
/// Foundation turns into a crash of the whole test process.
struct HeadlessProcess {
    let status: Int32
    let output: String
    let errorOutput: String

    /// Runs `ftw-headless` with `arguments` and waits for it to exit, on a thread of its own.
    static func run(_ arguments: [String]) async throws -> HeadlessProcess {
        try await OwnThread.run { try runBlocking(arguments) }
    }

    private static func runBlocking(_ arguments: [String]) throws -> HeadlessProcess {
        let scratch = try ScratchFolder()
        let outputPath = try scratch.file("stdout", "")
        let errorPath = try scratch.file("stderr", "")
        let process = ChildProcess()
        process.executableURL = BuiltProduct.url("ftw-headless")
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        return HeadlessProcess(
            status: process.terminationStatus,
            output: try String(contentsOfFile: outputPath, encoding: .utf8),
            errorOutput: try String(contentsOfFile: errorPath, encoding: .utf8)
        )
    }
}
