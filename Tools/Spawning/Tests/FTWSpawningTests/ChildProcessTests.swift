import FTWSpawning
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A child started from anywhere (a dispatch worker blocks most signals) can be stopped: its signals are unblocked
/// and at their default actions, whatever its parent's thread had.
@Suite struct ChildProcessTests {
    @Test func aChildStartedFromAWorkerThreadBlocksNoSignal() async throws {
        let output = try await Task.detached {
            try Self.output(of: "/bin/grep", ["-E", "^(SigBlk|SigIgn)", "/proc/self/status"])
        }.value
        // Signals 1 to 31; glibc keeps two real-time signals of its own above them, which no child can change.
        #expect(Self.mask("SigBlk", in: output) & 0x7fff_ffff == 0, "\(output)")
        #expect(Self.mask("SigIgn", in: output) & 0x7fff_ffff == 0, "\(output)")
    }

    /// The signal mask a `/proc/<pid>/status` line gives as hex; all ones when the line is missing.
    private static func mask(_ name: String, in status: String) -> UInt64 {
        let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
        return line.flatMap { UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
            ?? .max
    }

    @Test func sigtermStopsAChildStartedFromAWorkerThread() async throws {
        let child = try await Task.detached {
            let child = ChildProcess()
            child.executableURL = URL(filePath: "/bin/sleep")
            child.arguments = ["600"]
            try child.run()
            return child
        }.value
        // A child that ignored SIGTERM would be waited for forever: the watchdog ends it with SIGKILL instead,
        // which the test refuses.
        let watchdog = Task {
            try await ContinuousClock().sleep(for: .seconds(30))
            child.signal(SIGKILL)
        }
        defer { watchdog.cancel() }
        child.terminate()
        #expect(await child.exited() == SIGTERM)
        #expect(child.terminationReason == .uncaughtSignal)
    }

    @Test func aChildsOutputEndsWhenItExitsAndItsStatusIsKept() throws {
        #expect(try Self.output(of: "/bin/sh", ["-c", "echo hello; exit 3"]) == "hello\n")
        let child = ChildProcess()
        child.executableURL = URL(filePath: "/bin/sh")
        child.arguments = ["-c", "exit 3"]
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationStatus == 3)
        #expect(child.terminationReason == .exit)
        #expect(!child.isRunning)
    }

    @Test func aMissingProgramIsRefusedWithTheReason() {
        let child = ChildProcess()
        child.executableURL = URL(filePath: "/nonexistent/ftw-nothing")
        #expect(throws: POSIXError.self) { try child.run() }
    }

    private static func output(of program: String, _ arguments: [String]) throws -> String {
        let child = ChildProcess()
        let pipe = Pipe()
        child.executableURL = URL(filePath: program)
        child.arguments = arguments
        child.standardOutput = pipe
        try child.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
