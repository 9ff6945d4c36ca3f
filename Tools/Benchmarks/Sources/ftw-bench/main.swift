import Foundation

/// The benchmarks by name: `swift run -c release ftw-bench <name> [arguments]`; one line each.
let benchmarks: [String: @Sendable ([String]) async -> Void] = [
    "flood": { arguments in await FloodBenchmark.run(arguments: arguments) },
    "history": { _ in await HistoryBenchmark.run() },
    "trace": { arguments in await TraceBenchmark.run(arguments: arguments) },
]

let arguments = Array(CommandLine.arguments.dropFirst())
if let name = arguments.first, let benchmark = benchmarks[name] {
    await benchmark(Array(arguments.dropFirst()))
} else {
    print("usage: ftw-bench <\(benchmarks.keys.sorted().joined(separator: "|"))> [arguments]")
    exit(2)
}
