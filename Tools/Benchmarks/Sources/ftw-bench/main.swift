import FTWSocketLoop
import Foundation

/// The benchmarks that run on the calling thread: no async main, so `valgrind --tool=callgrind` can run them
/// (valgrind 3.19 crashes in the `dispatch_main` an async main starts).
let synchronous: [String: ([String]) -> Void] = [
    "cbor": { arguments in CBORBenchmark.run(arguments: arguments) },
    "noise": { arguments in NoiseBenchmark.run(arguments: arguments) },
]

/// The benchmarks that measure actors, run on a detached task while the main thread waits.
let asynchronous: [String: @Sendable ([String]) async -> Void] = [
    "dial": { arguments in await DialBenchmark.run(arguments: arguments) },
    "frame": { arguments in await FrameBenchmark.run(arguments: arguments) },
    "flood": { arguments in await FloodBenchmark.run(arguments: arguments) },
    "handshake": { _ in await HandshakeBenchmark.run() },
    "history": { _ in await HistoryBenchmark.run() },
    "idle": { arguments in await IdleBenchmark.run(arguments: arguments) },
    "restore": { arguments in await RestoreBenchmark.run(arguments: arguments) },
    "return-bytes": { _ in await ReturnBytesBenchmark.run() },
    "trace": { arguments in await TraceBenchmark.run(arguments: arguments) },
    "tls": { _ in await TLSBenchmark.run() },
    "tls-dial": { arguments in await ColdDialBenchmark.run(arguments: arguments) },
]

/// The commands that stand for a phone's process (`frame real-client`, `idle client`): run as a task on the shared
/// event loop, as `ftw-headless` runs, so that what they count is the client's. On the global executor the harness
/// itself started libdispatch's worker pool, whose monitor wakes the process every second, and its sleeps woke
/// libdispatch's timer thread: context switches and system calls a phone does not pay.
let phones: Set<[String]> = [["frame", "real-client"], ["idle", "client"]]

let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
if phones.contains(Array(arguments.prefix(2))), let benchmark = asynchronous[arguments[0]],
    let loop = try? EventLoop.shared()
{
    loop.runBlocking { @Sendable in await benchmark(rest) }
} else if let name = arguments.first, let benchmark = synchronous[name] {
    benchmark(rest)
} else if let name = arguments.first, name == "idle", rest.first == "client", let benchmark = asynchronous[name] {
    // The idle client runs as `ftw-headless` runs a client: on the process's event loop. On a detached task it
    // reached libdispatch's worker pool, whose monitor then woke the process every second for good (1.2 context
    // switches and 5 system calls a second), a cost of the bench, not of the client.
    do {
        try EventLoop.shared().runBlocking { await benchmark(rest) }
    } catch {
        print("idle client: \(error)")
        exit(1)
    }
} else if let name = arguments.first, let benchmark = asynchronous[name] {
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        await benchmark(rest)
        finished.signal()
    }
    finished.wait()
} else {
    let names = (Array(synchronous.keys) + Array(asynchronous.keys)).sorted()
    print("usage: ftw-bench <\(names.joined(separator: "|"))> [arguments]")
    exit(2)
}
