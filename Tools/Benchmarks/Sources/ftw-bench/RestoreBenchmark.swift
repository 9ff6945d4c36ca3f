import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClient
import FTWClockSeam
import FTWHeadlessTooling
import FTWPrices
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWSite
import Foundation
import Synchronization

/// `ftw-bench restore`: what the second open pays to draw its small models from their sealed files.
///
/// The files are the ones the real models write during the tour (`ftw-headless run tour`): prices (96 and more
/// slots), plan, chargers, prefs (the box's refusal), home and snapshot; the tour's box serves no status. One round builds the seven models on the same store,
/// restores them and reads what a screen draws (the price timeline, the plan's state, the snapshot, the zone);
/// its baseline is reading and opening the same seven files from the same store (disk read and AES-GCM open). The
/// two are interleaved round by round, so both see the same machine, and printed as medians and their ratio.
///
/// ```
/// ftw-bench restore                      # the ratio, on files the tour writes into a temporary folder
/// ftw-bench restore prepare DIR          # the tour's files into DIR, for the counts below
/// ftw-bench restore models DIR N         # N rounds of restore + draw (for count-instructions.sh)
/// ftw-bench restore bare DIR N           # N rounds of the baseline
/// ```
enum RestoreBenchmark {
    private static let rounds = 5_000
    private static let warmUp = 300
    /// The model files measured: the ring and the tiles have their own benchmarks.
    private static let models = ["prices", "plan", "chargers", "prefs", "status"]
    /// Every round's models of `restore models DIR N`, alive until the process exits, as a launch keeps them.
    private static let keptAlive = Mutex<[[any Sendable]]>([])

    static func run(arguments: [String]) async {
        do {
            switch (arguments.first, arguments.dropFirst().first, arguments.dropFirst(2).first.flatMap(Int.init)) {
            case ("prepare", let folder?, _):
                try await prepare(DataFolder(url: URL(fileURLWithPath: folder)))
            case ("models", let folder?, let count?):
                let files = try await Files(DataFolder(url: URL(fileURLWithPath: folder)))
                for _ in 0..<count {
                    let models = await restoreAndDraw(files)
                    keptAlive.withLock { $0.append(models) }
                }
            case ("bare", let folder?, let count?):
                let files = try await Files(DataFolder(url: URL(fileURLWithPath: folder)))
                for _ in 0..<count { await readBare(files) }
            case (nil, _, _):
                try await compare()
            default:
                print("usage: ftw-bench restore [prepare DIR | models DIR N | bare DIR N]")
            }
        } catch {
            print("restore: \(error)")
        }
    }

    private static func compare() async throws {
        let folder = DataFolder(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("ftw-bench-\(UUID().uuidString)")
        )
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try await prepare(folder)
        let files = try await Files(folder)
        var baseline: [Duration] = []
        var restore: [Duration] = []
        for round in 0..<(warmUp + rounds) {
            let bare = await measure { await readBare(files) }
            let start = ContinuousClock.now
            let models = await restoreAndDraw(files)
            let restored = start.duration(to: .now)
            withExtendedLifetime(models) {}
            guard round >= warmUp else { continue }
            baseline.append(bare)
            restore.append(restored)
        }
        let read = median(baseline)
        let restored = median(restore)
        print("restore: \(files.names.count) files, \(files.bytes) bytes sealed: \(files.summary)")
        print("restore: read and open the sealed files (baseline): \(microseconds(read)) µs (median of \(rounds))")
        print("restore: restore the models and draw:               \(microseconds(restored)) µs (median of \(rounds))")
        print("restore: ratio restore / baseline: \(String(format: "%.2f", restored / read))")
    }

    /// Runs the tour into `folder`, so its sealed files are the ones the models wrote.
    private static func prepare(_ folder: DataFolder) async throws {
        let scenario = try BuiltInScenario.load("tour")
        _ = try await ScenarioRunner(scenario: scenario, name: "tour", dataFolder: folder.url).run()
    }

    /// The seven files of the tour's home, on one store whose key is already read.
    private struct Files {
        let store: FileSealedStore
        let site: SiteID
        let names: [SealedFileName]
        let bytes: Int
        let summary: String

        init(_ folder: DataFolder) async throws {
            store = folder.unlockedStore()
            let files = await store.files()
            guard let site = files.first(where: { $0.name.kind == .snapshot })?.name.site else {
                throw CommandError("no snapshot file in \(folder.sealedFolder.path): prepare the folder first")
            }
            self.site = site
            var candidates = [SealedFileName.home(site), .snapshot(site)]
            for model in models { candidates.append(try SealedFileName(kind: .kept, site: site, model: model)) }
            // The tour's box serves no status: its model restores nothing, as on a phone whose box never said.
            let measured = files.filter { candidates.contains($0.name) }
            guard measured.count >= candidates.count - 1 else {
                throw CommandError("the tour wrote \(measured.map(\.name)), not the files of \(candidates)")
            }
            names = measured.map(\.name)
            bytes = measured.reduce(0) { $0 + $1.bytes }
            summary = measured.map { "\($0.name.model ?? $0.name.kind.rawValue) \($0.bytes)" }.joined(separator: ", ")
            _ = await store.read(names[0])
        }
    }

    /// The baseline: every file read from disk and opened, nothing decoded.
    private static func readBare(_ files: Files) async {
        var total = 0
        for name in files.names { total += await files.store.read(name)?.count ?? 0 }
        precondition(total > 0, "the sealed files did not open")
    }

    /// The seven models built on the store, restored, and what a screen draws of each read; returns the models, so
    /// the caller decides when they go (a launch keeps them for the life of the process and never pays for their
    /// deallocation, so the counts do not either).
    private static func restoreAndDraw(_ files: Files) async -> [any Sendable] {
        let box = IdleBox()
        let clock = StoppedClock()
        let home = HomeModel(site: files.site, store: files.store, sessionEvents: box.events)
        let snapshot = SnapshotModel(site: files.site, store: files.store, sessionEvents: box.events, wallClock: clock)
        let prices = PriceWindowModel(
            site: files.site,
            session: box,
            store: files.store,
            wallClock: clock,
            timeZone: { home.timeZone }
        )
        let plan = PlanModel(site: files.site, session: box, store: files.store, wallClock: clock)
        let chargers = SiteReadModel<ChargerList>(site: files.site, session: box, store: files.store, wallClock: clock)
        let prefs = SiteReadModel<PlannerPrefs>(site: files.site, session: box, store: files.store, wallClock: clock)
        let status = SiteReadModel<SiteStatus>(site: files.site, session: box, store: files.store, wallClock: clock)
        await home.restore()
        await snapshot.restore()
        await prices.liveAsk.restore()
        await plan.liveAsk.restore()
        await chargers.liveAsk.restore()
        await prefs.liveAsk.restore()
        await status.liveAsk.restore()
        var drawn = 0
        drawn += home.timeZone == nil ? 0 : 1
        drawn += await snapshot.shown?.snapshot.fields.count ?? 0
        drawn += await prices.window?.timeline.count ?? 0
        if case .current(let shown) = await plan.state { drawn += shown.slots.count }
        drawn += await chargers.value?.chargers.count ?? 0
        drawn += await prefs.liveAsk.isUnavailable ? 1 : 0
        drawn += await status.value?.json.utf8.count ?? 0
        precondition(drawn > 96, "the models drew \(drawn) things from their files")
        return [home, snapshot, prices, plan, chargers, prefs, status]
    }

    private static func measure(_ body: () async -> Void) async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        await body()
        return start.duration(to: clock.now)
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    private static func microseconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration / .microseconds(1))
    }
}

/// A clock that stands still: the restore reads no time that matters.
private struct StoppedClock: WallClock {
    var nowMs: Int64 { 1_796_205_660_000 }
}

/// A session that is never asked: the models only restore.
private struct IdleBox: BoxSession {
    let events = EventBus<SessionEvent>()

    func readAnswer(
        _ request: ReadRequest,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)?
    ) async throws(SessionError) -> ReadAnswer {
        throw SessionError(.box, "the benchmark's box is never asked")
    }

    func command(_ request: CommandRequest) async throws(SessionError) -> CommandOutcome {
        throw SessionError(.box, "the benchmark's box takes no commands")
    }

    func hello() async -> HelloOK? { nil }
}

/// A benchmark that cannot run, and why.
private struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
