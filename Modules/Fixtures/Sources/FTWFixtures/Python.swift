import Dispatch
import FTWSpawning
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Python 3 as a cross-check peer: an independent implementation (cbor2, websockets) that our bytes must agree with.
public enum Python {
    /// What a run printed and how it ended.
    public struct Run: Sendable {
        /// The exit status (0 for success).
        public let status: Int32
        /// Standard output.
        public let output: String
        /// Standard error: why a run failed, such as a package that is not installed.
        public let errors: String

        /// Standard output's lines.
        public var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// Runs `python3 ARGUMENTS` with `input` on its standard input and waits for it, on a thread of its own (a
    /// cross-check can take many seconds; the caller suspends rather than hold a thread of the pool).
    ///
    /// A Python that exits early (a missing package) must fail the test with its message, not kill the test
    /// process: SIGPIPE is ignored, so writing to its closed input is an error, and the input is written beside the
    /// reads, so a peer that answers while it reads cannot fill a pipe and stall both sides.
    ///
    /// - Throws: When `python3` cannot be started.
    public static func run(_ arguments: [String], input: String) async throws -> Run {
        try await OwnThread.run { try runBlocking(arguments, input: input) }
    }

    /// ``run(_:input:)`` on the calling thread, which it blocks until Python exits: for a command-line tool's
    /// synchronous main (a benchmark under valgrind), never for a test.
    ///
    /// - Throws: When `python3` cannot be started.
    public static func runBlocking(_ arguments: [String], input: String) throws -> Run {
        signal(SIGPIPE, SIG_IGN)
        let process = ChildProcess()
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = DispatchGroup()
        DispatchQueue.global().async(group: writer) { @Sendable in
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        let errors = DispatchGroup()
        nonisolated(unsafe) var errorBytes = Data()
        DispatchQueue.global().async(group: errors) { @Sendable in
            errorBytes = stderr.fileHandleForReading.readDataToEndOfFile()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        writer.wait()
        errors.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errorBytes, as: UTF8.self)
        )
    }
}
