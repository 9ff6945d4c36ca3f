import FTWDemoBox
import FTWSessionInterface

/// Adds up a soak's timeline into its totals.
struct SoakTotalsCounter {
    let timeline: SoakTimeline
    let report: ScenarioReport
    let seed: UInt64

    var totals: SoakTotals {
        let received = timeline.received
        return SoakTotals(
            seed: seed,
            simulatedMs: report.simulatedMs,
            realMs: report.realMs,
            steps: timeline.steps.count,
            framesByType: Dictionary(received.map { ($0.type, 1) }, uniquingKeysWith: +),
            framesByModel: Dictionary(
                received.map { (SoakKind(type: $0.type, detail: $0.detail)?.rawValue ?? $0.type, 1) },
                uniquingKeysWith: +
            ),
            bytesSent: timeline.sentBytes,
            bytesReceived: timeline.receivedBytes,
            stays: report.stays.count,
            events: events,
            peakRingBytes: timeline.peakFiles["ring"]?.bytes ?? 0,
            ringBound: SoakInvariants.ringBound,
            peakTilesBytes: timeline.peakFiles["tiles"]?.bytes ?? 0,
            tilesBound: SoakInvariants.tilesBound,
            memory: memory
        )
    }

    /// Start, middle and end.
    private var memory: [SoakMemorySample] {
        let samples = timeline.samples
        guard let first = samples.first, let last = samples.last else { return [] }
        let middle = samples.first { $0.atMs >= last.atMs / 2 } ?? last
        return [first, middle, last]
    }

    private var events: [String: Int] {
        var counts: [String: Int] = [
            "stream returns": timeline.streamReturns.count, "hour's turns in front": timeline.hourTurns.count,
            "returns that waited for the box": timeline.boxWaits.count,
        ]
        var previous: ScenarioStep?
        for entry in timeline.steps {
            if let name = Self.name(of: entry.step, after: previous) { counts[name, default: 0] += 1 }
            previous = entry.step
        }
        return counts
    }

    private static func name(of step: ScenarioStep, after previous: ScenarioStep?) -> String? {
        switch step {
        case .launch: "launches"
        case .kill: "kills"
        case .phase(.background): "backgrounds"
        case .phase(.active):
            // A return passes straight through inactive; a glance waits there first.
            if case .wait = previous { "glances" } else { nil }
        case .show: "views"
        case .refresh: "refreshes"
        case .box(.cutCarriers): "carrier cuts"
        case .box(.reboot): "box reboots"
        case .box(.deviceQuiet(_, true)): "quiet spells"
        case .box(.pricesLate(true)): "prices late"
        case .box(.publishAt(let minutes)): minutes < 14 * 60 ? "early publications" : "late publications"
        case .box(.relayLatency): "latency changes"
        case .box(.update): "box updates"
        case .box(.failRead): "failing reads"
        case .relay(.rotate): "relay rotations"
        case .relay(.skew(let hours)): hours == 0 ? "relay clocks put right" : "relay clocks skewed"
        case .relay(.slowDown): "join allowances spent"
        case .relay(.restart): "relay restarts"
        default: nil
        }
    }
}
