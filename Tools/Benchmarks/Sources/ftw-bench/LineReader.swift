import Foundation
import Synchronization

/// The lines a child prints, read on demand from its output pipe: a benchmark waits for the line it needs.
final class LineReader: Sendable {
    private let handle: FileHandle
    private let buffer = Mutex<[UInt8]>([])

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line, blocking until it is printed; nil once the child's output ended.
    func next() -> String? {
        while true {
            if let line = buffer.withLock({ bytes -> String? in
                guard let newline = bytes.firstIndex(of: 10) else { return nil }
                defer { bytes.removeSubrange(...newline) }
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }) {
                return line
            }
            let data = handle.availableData
            if data.isEmpty { return nil }
            buffer.withLock { $0 += data }
        }
    }

    /// The next line that `matches`, skipping the others; nil once the output ended.
    func next(where matches: (String) -> Bool) -> String? {
        while let line = next() {
            if matches(line) { return line }
        }
        return nil
    }
}
