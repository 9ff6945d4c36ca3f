import FTWBus
import FTWSeal
import FTWSealInterface
import FTWTrace
import Foundation

/// `ftw-bench trace persist`: what the live trace's ring file costs each time it is written while the stream runs
/// (every 15 s in front), counted by callgrind around the write alone.
///
/// The trace holds a busy ten-field home at 1 Hz (five minutes of points in every ring, every field moving each
/// second, the same steps on every run); each round records the next 15 s and writes the ring file through a real
/// store (sealed, written, `fsync`ed and renamed in a temporary folder). `trace persist-run N` is the child that
/// does N rounds with a ``BenchWindow`` around each write.
enum TracePersistBenchmark {
    static let rounds = 20

    static func run(arguments: [String]) async {
        if arguments.first == "persist-run" {
            return await persist(rounds: arguments.dropFirst().first.flatMap(Int.init) ?? rounds)
        }
        guard Callgrind.available else { return print("trace persist: valgrind is not installed") }
        let folder = FileManager.default.temporaryDirectory.appending(path: "ftw-bench-persist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let output = try Callgrind.run([Tool.bench.path, "trace", "persist-run", String(rounds)], folder: folder)
            guard let counts = Callgrind.counts(in: folder) else {
                return print("trace persist: the run opened no window: \(output.suffix(300))")
            }
            let each = Double(counts.windows)
            print(
                "trace persist: ten fields × 301 points at 1 Hz, 15 s recorded before each write, \(counts.windows) writes"
            )
            print(
                String(
                    format: "trace persist: %.1f k instructions and %.1f allocations a write (callgrind)",
                    Double(counts.instructions) / each / 1_000,
                    Double(counts.allocations) / each
                )
            )
            print(
                String(
                    format: "trace persist: %.1f k instructions a live frame at 1 Hz (a write every 15 frames)",
                    Double(counts.instructions) / each / 15_000
                )
            )
        } catch {
            print("trace persist: \(error)")
        }
    }

    /// The child: a warm trace, then `rounds` rounds of 15 recorded seconds and a write in a window.
    private static func persist(rounds: Int) async {
        let folder = FileManager.default.temporaryDirectory.appending(path: "ftw-bench-ring-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileSealedStore(
            folder: folder,
            keys: InMemoryKeyProvider(key: Array(repeating: 7, count: 32)),
            events: EventBus()
        )
        let trace = TraceBenchmark.makeTrace(store: store)
        let frames = TraceBenchmark.tenFieldHome(seconds: 301 + rounds * 15, seed: 26)
        for frame in frames.prefix(301) { await trace.record(frame) }
        await trace.persist()
        for round in 0..<rounds {
            for frame in frames.dropFirst(301 + round * 15).prefix(15) { await trace.record(frame) }
            let usage = BenchWindow.open()
            await trace.persist()
            _ = BenchWindow.close(since: usage)
        }
        print("persisted \(rounds + 1) times")
    }
}
