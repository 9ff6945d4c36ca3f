import FTWBus
import FTWCache
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWHistory
import FTWSealInterface
import FTWSession
import FTWSessionInterface
import FTWTrace
import Foundation

/// The soak's observer: writes down, in simulated time, every step, every return of the stream, every ask that
/// settled and the name it was recorded under, the sealed files' sizes, and samples of memory each simulated hour.
actor SoakWatch: ScenarioObserver {
    private(set) var timeline = SoakTimeline()
    private var clock: (any WallClock)?
    private var startMs: Int64 = 0
    private var nextSampleMs: Int64 = 0
    private let sampleEveryMs: Int64 = 3_600_000

    func began(clock: any WallClock) {
        self.clock = clock
        startMs = clock.nowMs
        nextSampleMs = startMs
    }

    func step(_ step: ScenarioStep, atMs: Int64, client: HeadlessClient?) async {
        timeline.steps.append(.init(atMs: atMs, step: step))
        guard let client, atMs >= nextSampleMs else { return }
        nextSampleMs = atMs - (atMs - startMs) % sampleEveryMs + sampleEveryMs
        await sample(client, atMs: atMs)
    }

    func follow(store events: BusStream<SealEvent>) async {
        for await event in events {
            guard case .written(let file, let bytes) = event else { continue }
            let kind = String(file.prefix { $0 != "-" })
            guard bytes > timeline.peakFiles[kind]?.bytes ?? 0 else { continue }
            timeline.peakFiles[kind] = .init(bytes: bytes, atMs: nowMs)
        }
    }

    func follow(client: HeadlessClient) async {
        let session = client.sessionEvents.subscribe()
        let history = client.history.events.subscribe()
        let held = await client.history.window.askedUnder
        restored(.history, held)
        await restored(.chargers, client.chargers.stored?.name)
        await restored(.prefs, client.prefs.stored?.name)
        await restored(.status, client.status.stored?.name)
        await restored(.plan, client.plan.stored?.name)
        await restored(.prices, client.prices.stored?.name)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.follow(session: session) }
            group.addTask { await self.follow(history: history, held: held) }
            group.addTask { await self.follow(.chargers, client.chargers.events.subscribe()) }
            group.addTask { await self.follow(.prefs, client.prefs.events.subscribe()) }
            group.addTask { await self.follow(.status, client.status.events.subscribe()) }
            group.addTask { await self.follow(.plan, client.plan.events.subscribe()) }
            group.addTask { await self.follow(.prices, client.prices.events.subscribe()) }
        }
    }

    func ended(_ client: HeadlessClient, atMs: Int64) async {
        timeline.asks += await client.session.asks
        let traffic = await client.session.traffic
        timeline.sentBytes += traffic.sentBytes
        timeline.receivedBytes += traffic.receivedBytes
        await sample(client, atMs: atMs)
    }

    func finished(received: [ReceivedRequest]) {
        timeline.received = received
    }

    private var nowMs: Int64 { clock?.nowMs ?? 0 }

    /// Whether a `relay rotate` step is happening now: its 4410 is that step's, not the hour's.
    private var rotatedNow: Bool {
        timeline.steps.last { $0.atMs == nowMs && $0.step == .relay(.rotate) } != nil
    }

    private func follow(session events: BusStream<SessionEvent>) async {
        for await event in events {
            switch event {
            case .streamReturned: timeline.streamReturns.append(nowMs)
            case .carrierClosed(RelayCloseCode.rotated, _) where !rotatedNow: timeline.hourTurns.append(nowMs)
            case .connection(.awaitingBox): timeline.boxWaits.append(nowMs)
            default: continue
            }
        }
    }

    private func follow(history events: BusStream<HistoryEvent>, held: AskName?) async {
        var held = held
        for await event in events {
            switch event {
            case .changed(let window) where window.askedUnder != held:
                held = window.askedUnder
                if let name = held { settled(.history, name, .answered) }
            case .failed(let name, _): settled(.history, name, .failed)
            default: continue
            }
        }
    }

    private func follow<Answer>(_ kind: SoakKind, _ events: BusStream<LiveAsk<Answer>.Event>) async {
        for await event in events {
            switch event {
            case .answered(let stored): settled(kind, stored.name, .answered)
            case .failed(let name, _): settled(kind, name, .failed)
            case .restored, .notKept: continue
            }
        }
    }

    private func settled(_ kind: SoakKind, _ name: AskName, _ settled: SoakTimeline.Settled) {
        timeline.outcomes.append(.init(kind: kind, name: name, atMs: nowMs, settled: settled))
    }

    private func restored(_ kind: SoakKind, _ name: AskName?) {
        if let name { settled(kind, name, .restored) }
    }

    private func sample(_ client: HeadlessClient, atMs: Int64) async {
        let drawn = await DrawnFromFiles.read(from: client)
        timeline.samples.append(
            .init(
                atMs: atMs - startMs,
                residentBytes: Self.residentBytes(),
                traceBytes: await client.trace.footprint.bytes,
                tracePoints: drawn.tracePoints,
                historySteps: drawn.historySteps
            )
        )
    }

    /// The resident set size from `/proc/self/statm` (its second field, in pages); 0 where there is none.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
