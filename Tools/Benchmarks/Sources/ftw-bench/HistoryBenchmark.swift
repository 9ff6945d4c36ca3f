import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWHistory
import FTWHistoryTestSupport
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import Foundation

/// `ftw-bench history`: what a cold start pays to draw its history in frame one.
///
/// Restoring `tiles-<site>` and building the model (a new `HistoryModel`, its `restore()`: read, open, parse,
/// decode five tiles, lay out the window) against reading and opening the same sealed bytes alone, in one run with
/// the two interleaved round by round so both see the same machine; printed as medians and their ratio. The file
/// is the one the model itself writes after priming 48 hours of four series.
enum HistoryBenchmark {
    private static let rounds = 10_000
    private static let warmUp = 500
    private static let site = SiteID(rawValue: "deb7e3fa44c17f16")!
    /// 10:01 UTC on 2026-12-02, so the window spans five tiles, the last still filling.
    private static let originMs: Int64 = 1_796_205_660_000

    static func run() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let seals = EventBus<SealEvent>()
        let store = FileSealedStore(
            folder: folder,
            keys: InMemoryKeyProvider(key: Array(repeating: 7, count: 32)),
            events: seals
        )
        let clock = ManualClock(originMs: originMs)
        let box = BenchBox(clock: clock)
        await prime(store: store, seals: seals, box: box, clock: clock)
        guard let size = await store.files().first(where: { $0.name == .tiles(site) })?.bytes else {
            print("history: priming wrote no tiles file")
            return
        }
        var baseline: [Duration] = []
        var restore: [Duration] = []
        for round in 0..<(warmUp + rounds) {
            let read = await measure { _ = await store.read(.tiles(site)) }
            let restored = await measure {
                let model = makeModel(store: store, box: box, clock: clock)
                await model.restore()
            }
            guard round >= warmUp else { continue }
            baseline.append(read)
            restore.append(restored)
        }
        report(size: size, baseline: baseline, restore: restore)
    }

    /// Runs a model until the priming's answer is sealed, as a first launch would.
    private static func prime(
        store: FileSealedStore,
        seals: EventBus<SealEvent>,
        box: BenchBox,
        clock: ManualClock
    )
        async
    {
        let written = seals.subscribe()
        let model = makeModel(store: store, box: box, clock: clock)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await model.run() }
            box.events.publish(.streamReturned(connection: 1))
            for await event in written {
                if case .written = event { break }
            }
            model.finish()
        }
    }

    private static func makeModel(store: FileSealedStore, box: BenchBox, clock: ManualClock) -> HistoryModel {
        HistoryModel(
            site: site,
            store: store,
            session: box,
            sessionEvents: box.events,
            clock: clock,
            wallClock: clock,
            policy: .ageKeyed
        )
    }

    private static func measure(_ body: () async -> Void) async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        await body()
        return start.duration(to: clock.now)
    }

    private static func report(size: Int, baseline: [Duration], restore: [Duration]) {
        let read = median(baseline)
        let restored = median(restore)
        print("history: tiles-<site> for 48 h of four series: \(size) bytes")
        print("history: read and open the sealed file (baseline): \(microseconds(read)) µs (median of \(rounds))")
        print("history: restore and build the model:             \(microseconds(restored)) µs (median of \(rounds))")
        print("history: ratio restore / baseline: \(String(format: "%.2f", restored / read))")
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    private static func microseconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration / .microseconds(1))
    }
}

/// The box for the benchmark's priming: answers `hist.query` with 48 hours of readings, handing tiles over one by one.
private actor BenchBox: BoxSession {
    nonisolated let events = EventBus<SessionEvent>()
    private let clock: ManualClock

    init(clock: ManualClock) {
        self.clock = clock
    }

    func readAnswer(
        _ request: ReadRequest,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)?
    ) async throws(SessionError) -> ReadAnswer {
        guard case .history(let query) = request else { throw SessionError(.box, "only history is served") }
        let answer = ScriptedBox().answer(query, nowMs: clock.nowMs)
        for chunk in answer.chunks { onChunk?(chunk) }
        return .history(answer)
    }

    func command(_ request: CommandRequest) async throws(SessionError) -> CommandOutcome {
        throw SessionError(.box, "the benchmark's box takes no commands")
    }

    func hello() async -> HelloOK? { nil }
}
