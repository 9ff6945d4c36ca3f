import FTWSpawning
import Foundation

/// Callgrind around a child's ``BenchWindow``s: the instructions and heap allocations of every thread of the child
/// between each `ftw_bench_window_open` and the `ftw_bench_window_close` after it, summed over the windows.
///
/// Instruction counts are what is stable on the shared VM, where wall times move by a third. An allocation is a
/// call of `malloc`, `calloc`, `realloc`, `posix_memalign`, `aligned_alloc` or `memalign` inside a window.
enum Callgrind {
    /// What callgrind counted over the windows of one run.
    struct Counts: Sendable {
        var instructions: Int
        var allocations: Int
        var windows: Int
        /// Each window's instructions, in the order the windows closed.
        var each: [Int] = []
    }

    private static let allocators: Set<String> = [
        "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign",
    ]

    /// Whether valgrind is installed.
    static var available: Bool { Tool.find("valgrind") != nil }

    /// The command that runs `command` under callgrind with the window's triggers, writing into `folder`.
    static func command(_ command: [String], folder: URL) -> [String] {
        [
            Tool.find("valgrind")?.path ?? "valgrind", "--tool=callgrind", "--zero-before=ftw_bench_window_open",
            "--dump-before=ftw_bench_window_close",
            "--callgrind-out-file=\(folder.appending(path: "callgrind.out").path)",
        ] + command
    }

    /// Runs `command` under callgrind, writing its dumps into `folder`, and waits for it; returns what it printed.
    static func run(_ command: [String], folder: URL) throws -> String {
        let full = Self.command(command, folder: folder)
        let child = ChildProcess()
        let output = Pipe()
        child.executableURL = URL(filePath: full[0])
        child.arguments = Array(full.dropFirst())
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return String(decoding: printed, as: UTF8.self)
    }

    /// The windows counted in the dumps callgrind wrote in `folder`; nil when there are none.
    static func counts(in folder: URL) -> Counts? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let parts = names.compactMap { name -> (part: Int, name: String)? in
            guard name.hasPrefix("callgrind.out."), let part = Int(name.dropFirst(14)) else { return nil }
            return (part, name)
        }
        var total = Counts(instructions: 0, allocations: 0, windows: 0)
        for (_, name) in parts.sorted(by: { $0.part < $1.part }) {
            guard let text = try? String(contentsOf: folder.appending(path: name), encoding: .utf8),
                let window = window(text)
            else { continue }
            total.instructions += window.instructions
            total.allocations += window.allocations
            total.windows += 1
            total.each.append(window.instructions)
        }
        return total.windows > 0 ? total : nil
    }

    /// One dump's instructions and allocations, if a window's close triggered it; the dump of the empty window
    /// ``BenchWindow`` opens first starts at basic block 0 and is left out.
    static func window(_ dump: String) -> (instructions: Int, allocations: Int)? {
        var triggered = false
        var instructions = 0
        var allocations = 0
        var names: [String: String] = [:]
        var callingAllocator = false
        for line in dump.split(separator: "\n") {
            if line.hasPrefix("desc: Timerange: Basic block 0 ") {
                return nil
            } else if line.hasPrefix("desc: Trigger:") {
                triggered = line.contains("dump-before")
            } else if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                instructions = Int(line.split(separator: " ").last ?? "") ?? instructions
            } else if line.hasPrefix("cfn=") {
                callingAllocator = allocators.contains(function(String(line.dropFirst(4)), names: &names))
            } else if line.hasPrefix("fn=") {
                _ = function(String(line.dropFirst(3)), names: &names)
                callingAllocator = false
            } else if line.hasPrefix("calls="), callingAllocator {
                allocations += Int(line.dropFirst(6).split(separator: " ").first ?? "") ?? 0
                callingAllocator = false
            }
        }
        return triggered ? (instructions, allocations) : nil
    }

    /// The name a `(id) name` or `(id)` reference stands for; a reference with a name defines its id.
    private static func function(_ reference: String, names: inout [String: String]) -> String {
        guard reference.hasPrefix("("), let close = reference.firstIndex(of: ")") else { return reference }
        let id = String(reference[...close])
        let name = reference[reference.index(after: close)...].trimmingCharacters(in: .whitespaces)
        if !name.isEmpty { names[id] = name }
        return names[id] ?? ""
    }
}
