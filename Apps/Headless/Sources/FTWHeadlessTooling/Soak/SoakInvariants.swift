import FTWCache
import FTWDemoBox
import FTWSessionInterface
import Foundation

/// The soak's invariants, checked over everything it saw (docs/soak.md): each broken one is a ``SoakFinding``
/// naming the simulated time and the stay.
struct SoakInvariants {
    /// How long after an event its requests may still arrive: a return's queue of reads through the one API slot,
    /// over the slowest relay the soak sets (300 ms each way).
    static let eventReachMs: Int64 = 20_000
    /// cache.md §5: the ring file holds about 16 KB (the ten-field home's five minutes seal within 16 KiB).
    static let ringBound = 16_384
    /// cache.md §5: the tiles file holds five tiles of four series (5 × 2304 bytes), headers and the seal: 11.5 KB.
    static let tilesBound = 5 * 2304 + 50 + 256
    /// How much resident memory may grow between the second hour and the end.
    static let residentGrowthBound = 48 << 20

    let timeline: SoakTimeline
    let stays: [StayReport]
    let startMs: Int64
    let endMs: Int64
    let zone: TimeZone
    let checksResidentMemory: Bool

    /// Every finding, in the order of the rules.
    var findings: [SoakFinding] {
        names() + timers() + stayBounds() + asksLog() + files() + memory()
    }

    /// The stay (1-based) `atMs` belongs to (``Stays``: the last that began at or before it).
    func stay(atMs: Int64) -> Int? {
        Stays.index(atMs: atMs, beganAtMs: stays.map(\.beganAtMs)).map { $0 + 1 }
    }

    private func finding(_ rule: SoakFinding.Rule, atMs: Int64, _ message: String) -> SoakFinding {
        SoakFinding(rule, atMs: atMs - startMs, stay: stay(atMs: atMs), message)
    }

    private func clock(_ atMs: Int64) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter.string(from: Date(timeIntervalSince1970: Double(atMs) / 1000))
    }

    // MARK: Names

    /// Each answer is recorded under a name the model wanted between its previous ask settling (or the launch) and
    /// its own first request frame leaving: never under a name that only began after the ask left.
    ///
    /// Asks settle in the order they were sent, one at a time per model, so each settled ask takes the oldest request
    /// frames of its model not yet taken (a history load takes all of its one or two); a launch forgets the frames a
    /// killed process left unanswered.
    private func names() -> [SoakFinding] {
        var findings: [SoakFinding] = []
        var pending: [SoakKind: [Sent]] = [:]
        var previous: [SoakKind: SoakTimeline.Outcome] = [:]
        var launchMs = startMs
        for event in nameEvents() {
            switch event {
            case .launch(let atMs):
                launchMs = atMs
                pending = [:]
                previous = [:]
            case .sent(let kind, let sent):
                pending[kind, default: []].append(sent)
            case .settled(let outcome):
                defer { previous[outcome.kind] = outcome }
                guard outcome.settled != .restored else { continue }
                let taken = take(from: &pending[outcome.kind, default: []], for: outcome)
                guard outcome.settled == .answered else { continue }
                let fromMs = previous[outcome.kind]?.atMs ?? launchMs
                if let finding = check(outcome, fromMs: fromMs, sent: taken, held: previous[outcome.kind]?.name) {
                    findings.append(finding)
                }
            }
        }
        return findings
    }

    /// A request frame as the app sent it: when it left, and when its ask was made if the frame says (a history
    /// read names the end of its window, the moment the load was planned).
    private struct Sent {
        var atMs: Int64
        var askedAtMs: Int64?
    }

    private enum NameEvent {
        case launch(Int64)
        case sent(SoakKind, Sent)
        case settled(SoakTimeline.Outcome)

        var atMs: Int64 {
            switch self {
            case .launch(let atMs): atMs
            case .sent(_, let sent): sent.atMs
            case .settled(let outcome): outcome.atMs
            }
        }

        /// At the same instant a launch comes first, then frames leaving, then asks settling.
        var rank: Int {
            switch self {
            case .launch: 0
            case .sent: 1
            case .settled: 2
            }
        }
    }

    private func nameEvents() -> [NameEvent] {
        let launches = timeline.steps.filter { $0.step == .launch }.map { NameEvent.launch($0.atMs) }
        let sent = timeline.asks.compactMap { ask in
            SoakKind(type: ask.type, detail: ask.detail).map { kind in
                NameEvent.sent(kind, Sent(atMs: ask.atMs, askedAtMs: kind.askedAtMs(detail: ask.detail)))
            }
        }
        let events = launches + sent + timeline.outcomes.map { NameEvent.settled($0) }
        return events.enumerated().sorted { left, right in
            (left.element.atMs, left.element.rank, left.offset) < (right.element.atMs, right.element.rank, right.offset)
        }.map(\.element)
    }

    /// The frames an ask that settled sent: the oldest one waiting; for a history load every one waiting that left
    /// before it settled (a window lands a display frame after its last read left, and the next load may leave in the
    /// same instant it settles).
    private func take(from pending: inout [Sent], for outcome: SoakTimeline.Outcome) -> [Sent] {
        let before = pending.prefix { $0.atMs < outcome.atMs }.count
        let count = outcome.kind == .history ? (before > 0 ? before : pending.count) : min(1, pending.count)
        defer { pending.removeFirst(count) }
        return Array(pending.prefix(count))
    }

    private func check(
        _ outcome: SoakTimeline.Outcome,
        fromMs: Int64,
        sent: [Sent],
        held: AskName?
    ) -> SoakFinding? {
        guard let first = sent.first?.atMs else {
            // A plan the box pushes after a command is kept without a request; nothing else may be.
            guard outcome.kind != .plan else { return nil }
            return finding(
                .recordedUnderAnotherName,
                atMs: outcome.atMs,
                "\(outcome.kind.rawValue) recorded '\(outcome.name)' with no request since \(clock(fromMs))"
            )
        }
        // A load planned at a known moment was asked under that moment's name, whenever its frames left.
        let askedAtMs = sent.compactMap(\.askedAtMs).max()
        let allowed = outcome.kind.names(
            fromMs: askedAtMs ?? min(fromMs, first),
            toMs: askedAtMs ?? first,
            zone: zone,
            held: held
        )
        guard !allowed.contains(outcome.name) else { return nil }
        return finding(
            .recordedUnderAnotherName,
            atMs: outcome.atMs,
            "\(outcome.kind.rawValue) recorded '\(outcome.name)' at \(clock(outcome.atMs)) but its ask left at "
                + "\(clock(first)), when it was wanted under \(allowed.map(\.rawValue).sorted())"
        )
    }

    // MARK: No timer

    private var triggers: [Int64] {
        let steps = timeline.steps.filter { entry in
            switch entry.step {
            case .launch, .show, .refresh: true
            case .phase(let phase): phase != .background
            default: Self.isFault(entry.step)
            }
        }
        return (steps.map(\.atMs) + timeline.streamReturns + timeline.hourTurns).sorted()
    }

    /// When each kind's asks failed: a failed read frees the box's one API slot, and the reads queued behind it (of
    /// other kinds) leave then, however long it held the slot (a read the box never answers holds it 20 s).
    private var failures: [(kind: SoakKind, atMs: Int64)] {
        timeline.outcomes.filter { $0.settled == .failed }.map { ($0.kind, $0.atMs) }
    }

    /// Whether `step` drops the read on the wire (a cut; a reboot, an update, a rotation or a restart closing every
    /// session), so the read is asked again.
    private static func isFault(_ step: ScenarioStep) -> Bool {
        switch step {
        case .box(.cutCarriers), .box(.reboot), .box(.update), .relay(.rotate), .relay(.restart): true
        default: false
        }
    }

    /// For each stay (by index) and kind, the reads a `box fail … once` made fail: the first frame of its read the
    /// box received after the step is refused or never answered, and asked again (a busy API read at once).
    private func failedOnPurpose() -> [Int: [SoakKind: Int]] {
        var credits: [Int: [SoakKind: Int]] = [:]
        let beganAtMs = stays.map(\.beganAtMs)
        for entry in timeline.steps {
            guard case .box(.failRead(let fault)) = entry.step, let kind = SoakKind(fault.read) else { continue }
            guard
                let frame = timeline.received.first(where: {
                    $0.atMs >= entry.atMs && SoakKind(type: $0.type, detail: $0.detail) == kind
                }),
                let stay = Stays.index(atMs: frame.atMs, beganAtMs: beganAtMs)
            else { continue }
            credits[stay, default: [:]][kind, default: 0] += 1
        }
        return credits
    }

    /// Every request the box received follows, within ``eventReachMs``, a lifecycle step, a view, a pull to refresh,
    /// a fault or a return of the stream, or the turn of its own model's name; anything else a timer sent.
    private func timers() -> [SoakFinding] {
        let triggers = triggers
        let failures = failures
        return timeline.received.compactMap { request in
            let kind = SoakKind(type: request.type, detail: request.detail)
            let earliest = request.atMs - Self.eventReachMs
            if let bucket = kind?.bucketMs, request.atMs / bucket != earliest / bucket { return nil }
            if triggers.contains(where: { $0 >= earliest && $0 <= request.atMs }) { return nil }
            let freedSlot = failures.contains { $0.kind != kind && $0.atMs >= earliest && $0.atMs <= request.atMs }
            if freedSlot { return nil }
            let before = triggers.last { $0 <= request.atMs }.map { "the last event was at \(clock($0))" }
            return finding(
                .timerDriven,
                atMs: request.atMs,
                "\(request.type) \(request.detail) at \(clock(request.atMs)) with no event or name turn before it; "
                    + (before ?? "no event before it")
            )
        }
    }

    // MARK: Per stay

    /// Per stay and model, the request frames stay within what cache.md allows: one ask per name the stay's time
    /// covers, one per person's refresh, one per fault (a retry), and for the time-to-live reads one per time someone
    /// started looking (a view appearing, the stream returning); a history load is two frames at most.
    private func stayBounds() -> [SoakFinding] {
        let beganAtMs = stays.map(\.beganAtMs)
        let failedOnPurpose = failedOnPurpose()
        return stays.enumerated().flatMap { index, stay in
            // The last stay's frames count until the soak's end.
            let span = Stays.span(of: index, beganAtMs: beganAtMs)
                .clamped(to: stay.beganAtMs..<max(stay.beganAtMs, self.endMs))
            let endMs = span.upperBound
            let frontEndMs = stay.endedAtMs ?? endMs
            let received = timeline.received.filter { span.contains($0.atMs) }
            let steps = timeline.steps.filter { $0.atMs >= stay.beganAtMs && $0.atMs <= frontEndMs }.map(\.step)
            let returns = timeline.streamReturns.filter { $0 >= stay.beganAtMs && $0 <= frontEndMs }.count
            // The hour's turn drops the read on the wire as a cut does.
            let turns = timeline.hourTurns.filter { $0 >= stay.beganAtMs && $0 <= frontEndMs }.count
            let faults = steps.filter(Self.isFault).count + turns
            return SoakKind.allCases.compactMap { kind -> SoakFinding? in
                let frames = received.filter { SoakKind(type: $0.type, detail: $0.detail) == kind }
                let turns = kind.bucketMs.map { frontEndMs / $0 - stay.beganAtMs / $0 } ?? 0
                let refreshes = steps.filter {
                    if case .refresh(let view) = $0 { kind.isShown(by: view) } else { false }
                }
                let shows = steps.filter { if case .show(let view) = $0 { kind.isShown(by: view) } else { false } }
                let looks = kind.hasTimeToLive ? shows.count + returns : 0
                let kindFaults = faults + (failedOnPurpose[index]?[kind] ?? 0)
                let asks = 1 + Int(turns) + refreshes.count + kindFaults + looks
                guard frames.count > kind.framesPerAsk * asks, let last = frames.last else { return nil }
                return finding(
                    .overStayBound,
                    atMs: last.atMs,
                    "\(frames.count) \(kind.rawValue) frames where the rules allow \(kind.framesPerAsk * asks) "
                        + "(\(kind.framesPerAsk) × [1 + \(turns) name turns + \(refreshes.count) refreshes + "
                        + "\(kindFaults) faults + \(looks) starts of looking])"
                )
            }
        }
    }

    // MARK: Asks log, files, memory

    /// The client's asks log equals the box's list, stay by stay (a frame lost to a cut aside): the stay report's own
    /// comparison.
    private func asksLog() -> [SoakFinding] {
        stays.compactMap { stay in
            stay.mismatch.map { finding(.asksLogMismatch, atMs: stay.beganAtMs, $0) }
        }
    }

    /// The ring and tiles files never grew past their bounds.
    private func files() -> [SoakFinding] {
        [("ring", Self.ringBound), ("tiles", Self.tilesBound)].compactMap { file, bound in
            guard let peak = timeline.peakFiles[file], peak.bytes > bound else { return nil }
            return finding(
                .fileTooLarge,
                atMs: peak.atMs,
                "\(file) sealed at \(peak.bytes) bytes; its bound is \(bound)"
            )
        }
    }

    /// The models' own memory at the end (the trace's reserved rings, the history steps held) stays within a quarter
    /// (and a little) of its largest in the first two hours (or up to the first time it held anything), and resident
    /// memory grows by less than ``residentGrowthBound``. Points live in the trace come and go with quiet devices and
    /// time in front, so they are reported, not checked.
    private func memory() -> [SoakFinding] {
        let samples = timeline.samples
        guard let end = samples.last else { return [] }
        let early = samples.prefix { $0.atMs <= 2 * 3_600_000 } + samples.drop { $0.atMs <= 2 * 3_600_000 }.prefix(1)
        guard let hourTwo = early.last, hourTwo.atMs < end.atMs else { return [] }
        var grown: [String] = []
        let counts: [(String, KeyPath<SoakMemorySample, Int>, Int)] = [
            ("trace bytes", \.traceBytes, 4096), ("history steps", \.historySteps, 64),
        ]
        for (name, path, slack) in counts {
            // A model that held nothing in the first two hours (the app mostly in the background) is measured from
            // the first time it held something.
            let firstHeld = samples.first { $0[keyPath: path] > 0 }?.atMs ?? 0
            let baseline =
                samples.prefix { $0.atMs <= max(hourTwo.atMs, firstHeld) }.map { $0[keyPath: path] }.max() ?? 0
            if end[keyPath: path] > baseline + baseline / 4 + slack {
                grown.append("\(name) \(baseline) → \(end[keyPath: path])")
            }
        }
        if checksResidentMemory, end.residentBytes > hourTwo.residentBytes + Self.residentGrowthBound {
            grown.append("resident \(hourTwo.residentBytes >> 20) MiB → \(end.residentBytes >> 20) MiB")
        }
        guard !grown.isEmpty else { return [] }
        return [finding(.memoryGrew, atMs: startMs + end.atMs, grown.joined(separator: ", "))]
    }
}
