import Fixtures
import Foundation

/// `ftw-headless` run as a person runs it: a child process, its exit status and the lines it printed.
struct HeadlessProcess {
    let status: Int32
    let output: String
    let errorOutput: String

    /// Runs `ftw-headless` with `arguments` and waits for it to exit.
    static func run(_ arguments: [String]) throws -> HeadlessProcess {
        let process = Process()
        process.executableURL = BuiltProduct.url("ftw-headless")
        process.arguments = arguments
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return HeadlessProcess(
            status: process.terminationStatus,
            output: String(decoding: printed, as: UTF8.self),
            errorOutput: String(decoding: complained, as: UTF8.self)
        )
    }
}
