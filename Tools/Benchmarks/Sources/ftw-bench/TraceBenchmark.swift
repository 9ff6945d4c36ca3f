import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWTrace
import Foundation
import Synchronization

/// `ftw-bench trace`: what one live sample costs in LiveTrace's ring, and what reading the ring file back costs,
/// each against the plain-array way measured in the same run.
///
/// `ftw-bench trace append <samples>` runs only the two append loops, for `valgrind --tool=callgrind`.
enum TraceBenchmark {
    /// One sample of the baseline: what the reference app keeps per reading.
    struct Sample {
        var timeMs: Int64
        var value: Int64
    }

    static let windowMs: Int64 = 300_000
    static let capacity = 360
    static let site = SiteID(rawValue: "deb7e3fa44c17f16")!

    /// Runs the whole benchmark; `append <samples>` runs only the two append loops.
    static func run(arguments: [String]) async {
        if arguments.first == "persist" || arguments.first == "persist-run" {
            return await TracePersistBenchmark.run(arguments: arguments)
        }
        if arguments.first == "append" {
            let samples = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
            print("ring checksum \(ringAppend(samples: samples)), array checksum \(arrayAppend(samples: samples))")
            return
        }
        print("Trace benchmark (release build; best of 5 rounds)")
        appendCost()
        await frameCost()
        await restoreCost()
    }

    // MARK: Append

    private static func appendCost() {
        let samples = 5_000_000
        let ring = best { ringAppend(samples: samples) } / Double(samples)
        let array = best { arrayAppend(samples: samples) } / Double(samples)
        print(
            String(
                format: "append   ring %.2f ns/sample   [Sample] append+trim %.2f ns/sample   ratio %.2f",
                ring,
                array,
                ring / array
            )
        )
    }

    /// Appends `samples` 1 Hz points to one ring, as the live path does (run decision included).
    @inline(never)
    static func ringAppend(samples: Int) -> Int64 {
        let ring = TraceRing(capacity: capacity, windowMs: windowMs)
        var runs: UInt32 = 0
        for index in 0..<samples {
            let time = Int64(index) * 1_000
            ring.record(
                timeMs: time,
                value: Int64(index & 0xFFF),
                source: .box,
                gapRuleMs: 3_500,
                anchor: 1,
                runs: &runs
            )
        }
        return (ring.newest?.value ?? 0) &+ Int64(ring.count)
    }

    /// The baseline: a plain array, appended to and trimmed to the window from the front.
    @inline(never)
    static func arrayAppend(samples: Int) -> Int64 {
        var array: [Sample] = []
        for index in 0..<samples {
            let time = Int64(index) * 1_000
            array.append(Sample(timeMs: time, value: Int64(index & 0xFFF)))
            let cutoff = time - windowMs
            if let first = array.first, first.timeMs < cutoff {
                array.removeFirst(array.firstIndex { $0.timeMs >= cutoff } ?? 0)
            }
        }
        return (array.last?.value ?? 0) &+ Int64(array.count)
    }

    // MARK: A whole frame

    private static func frameCost() async {
        let frames = tenFieldHome(seconds: 50_000)
        var perFrame = Double.infinity
        for _ in 0..<5 {
            let trace = makeTrace(store: nil)
            let start = ContinuousClock.now
            for frame in frames { await trace.record(frame) }
            perFrame = min(perFrame, nanoseconds(since: start) / Double(frames.count))
        }
        print(
            String(
                format: "frame    ten-field delta through LiveTrace %.0f ns/frame (%.0f ns/sample, actor hop included)",
                perFrame,
                perFrame / 10
            )
        )
    }

    // MARK: Restore

    private static func restoreCost() async {
        let folder = FileManager.default.temporaryDirectory.appending(component: "ftw-bench-trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileSealedStore(
            folder: folder,
            keys: InMemoryKeyProvider(key: Array(repeating: 7, count: 32)),
            events: EventBus()
        )
        let capture = CapturingStore()
        let writer = makeTrace(store: capture)
        for frame in tenFieldHome(seconds: 301) { await writer.record(frame) }
        await writer.persist()
        let contents = capture.contents
        try? await store.write(contents, to: .ring(site))
        let sealed = await store.files().first { $0.name == .ring(site) }?.bytes ?? 0
        print("file     ten fields × 301 points: contents \(contents.count) B, sealed \(sealed) B")

        print(
            "check    restored fields: sealed \(await restoreTrace(from: store)), in memory \(await restoreTrace(from: capture)), plain \(plainDecode(contents).count)"
        )
        let rounds = 2_000
        let traceOpen = await bestAsync(rounds: rounds) { _ = await restoreTrace(from: store) }
        let plainOpen = await bestAsync(rounds: rounds) { _ = plainDecode(await store.read(.ring(site)) ?? []) }
        print(
            String(
                format: "restore  open+decode LiveTrace %.1f µs   plain arrays %.1f µs   ratio %.2f",
                traceOpen,
                plainOpen,
                traceOpen / plainOpen
            )
        )
        let traceDecode = await bestAsync(rounds: rounds) { _ = await restoreTrace(from: capture) }
        let plainDecodeOnly = await bestAsync(rounds: rounds) { _ = plainDecode(contents) }
        print(
            String(
                format: "restore  decode only LiveTrace %.1f µs   plain arrays %.1f µs   ratio %.2f",
                traceDecode,
                plainDecodeOnly,
                traceDecode / plainDecodeOnly
            )
        )
    }

    private static func restoreTrace(from store: any SealedStore) async -> Int {
        let trace = makeTrace(store: store)
        await trace.restore()
        return await trace.fields.count
    }

    /// The baseline decoder: the same bytes into one array of times and one of values per field.
    static func plainDecode(_ bytes: [UInt8]) -> [(id: Int64, times: [Int64], values: [Int64])] {
        var reader = RingFileReader(bytes)
        var fields: [(id: Int64, times: [Int64], values: [Int64])] = []
        do {
            _ = try reader.byte()
            for _ in 0..<(try reader.varint()) {
                let id = try reader.signed()
                let count = Int(try reader.varint())
                var times: [Int64] = []
                var values: [Int64] = []
                if count > 0 {
                    for _ in 0..<(try reader.varint()) {
                        _ = try reader.varint()
                        _ = try reader.byte()
                    }
                    var time = try reader.signed()
                    var value = try reader.signed()
                    var step: Int64 = 0
                    times.append(time)
                    values.append(value)
                    for _ in 1..<count {
                        step &+= try reader.signed()
                        time &+= step
                        value &+= try reader.signed()
                        times.append(time)
                        values.append(value)
                    }
                }
                fields.append((id, times, values))
            }
        } catch {
            return []
        }
        return fields
    }

    // MARK: Helpers

    static func makeTrace(store: (any SealedStore)?) -> LiveTrace {
        let clock = ManualClock(originMs: 1_796_205_660_000)
        return LiveTrace(site: site, store: store, sessionEvents: EventBus(), clock: clock, wallClock: clock)
    }

    /// A busy ten-field home at 1 Hz, every field moving each second: a snap, then a delta a second. The steps are
    /// random unless `seed` is given, which makes them the same on every run (for counts).
    static func tenFieldHome(seconds: Int, seed: UInt64? = nil) -> [TelemetryFrame] {
        let bootMs: Int64 = 1_796_205_560_000
        let dict = Dictionary(
            uniqueKeysWithValues: (1...10).map { ($0, FieldDef(name: "f\($0)", unit: "W", srcId: "meter")) }
        )
        var values = Dictionary(uniqueKeysWithValues: (1...10).map { ($0, Int64($0 * 1_000)) })
        var random = SystemRandomNumberGenerator()
        var state = seed ?? 0
        let step = { () -> Int64 in
            guard seed != nil else { return Int64.random(in: -400...400, using: &random) }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64(state >> 33) % 801 - 400
        }
        return (0..<seconds).map { second in
            let uptime = Int64(100_000 + second * 1_000)
            let message: TelemetryFrame.Message
            if second == 0 {
                let meter = SourceInfo(name: "meter", lastOkMs: uptime - 200, staleAfterMs: 60_000, state: .live)
                message = .snap(
                    Snap(uptimeMs: uptime, controlRev: 1, dict: dict, fields: values, sources: ["meter": meter])
                )
            } else {
                for field in 1...10 { values[field, default: 0] += step() }
                message = .delta(Delta(seq: UInt64(second), uptimeMs: uptime, fields: values), truncated: false)
            }
            return TelemetryFrame(connection: 1, arrivalMs: bootMs + uptime + 40, message: message)
        }
    }

    /// The best of five rounds of `body`, in nanoseconds.
    private static func best(_ body: () -> Int64) -> Double {
        var fastest = Double.infinity
        var checksum: Int64 = 0
        for _ in 0..<5 {
            let start = ContinuousClock.now
            checksum &+= body()
            fastest = min(fastest, nanoseconds(since: start))
        }
        if checksum == 42 { print("") }
        return fastest
    }

    /// The best of five rounds of `rounds` calls of `body`, in microseconds per call.
    private static func bestAsync(rounds: Int, _ body: () async -> Void) async -> Double {
        var fastest = Double.infinity
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<rounds { await body() }
            fastest = min(fastest, nanoseconds(since: start) / Double(rounds) / 1_000)
        }
        return fastest
    }

    private static func nanoseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9
    }
}

/// A sealed store that keeps one file's contents in memory: the ring file's bytes before sealing, and a restore
/// with no file system or cipher in the way.
final class CapturingStore: SealedStore {
    private let stored = Mutex<[UInt8]>([])

    /// The contents last written.
    var contents: [UInt8] { stored.withLock { $0 } }

    func write(_ contents: [UInt8], to name: SealedFileName) async throws(SealError) {
        stored.withLock { $0 = contents }
    }

    func read(_ name: SealedFileName) async -> [UInt8]? { contents }
    func keepFile(name: String, site: SiteID, contents: [UInt8]) async throws(SealError) {}
    func keptFile(name: String, site: SiteID) async -> [UInt8]? { nil }
    func discard(_ name: SealedFileName, holding contents: [UInt8], because error: SealedContentError) async {}
    func erase(site: SiteID) async throws(SealError) {}
    func eraseAll() async throws(SealError) {}
    func files() async -> [SealedFileInfo] { [] }
}
