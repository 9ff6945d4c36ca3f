import FTWFixtures
import FTWSpawning
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `ftw-seal-writer` process: started on a folder, read line by line as it reports finished writes, killed.
final class WriterChild {
    private let process = ChildProcess()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private var ended = false

    /// The writer beside the test bundle, in the build's products folder.
    static let executable = BuiltProduct.url("ftw-seal-writer")

    init(folder: URL, generation: Int) throws {
        process.executableURL = Self.executable
        process.arguments = [folder.path(percentEncoded: false), String(generation)]
        process.standardOutput = output
        try process.run()
    }

    /// The index of the next write the child reports as finished, or nil once it has ended.
    func nextFinished() -> Int? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return Int(line)
            }
            guard !ended else { return nil }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { ended = true } else { buffer += data }
        }
    }

    /// Kills the child with SIGKILL, as a crash or the OS would, and waits until it is gone.
    func crash() {
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
