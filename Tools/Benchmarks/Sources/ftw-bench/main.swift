import Foundation

/// The benchmarks by name: `swift run -c release ftw-bench <name>`; one line each.
let benchmarks: [String: @Sendable () async -> Void] = [
    "history": HistoryBenchmark.run
]

let name = CommandLine.arguments.dropFirst().first ?? ""
if let benchmark = benchmarks[name] {
    await benchmark()
} else {
    print("usage: ftw-bench <\(benchmarks.keys.sorted().joined(separator: "|"))>")
    exit(2)
}
