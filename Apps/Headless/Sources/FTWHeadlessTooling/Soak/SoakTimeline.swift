import FTWCache
import FTWDemoBox
import FTWSessionInterface

/// What a soak saw as it ran, in simulated time: the raw material of its invariants and totals.
struct SoakTimeline: Sendable {
    /// A step and when it ran.
    struct Step: Sendable {
        var atMs: Int64
        var step: ScenarioStep
    }

    /// What happened to a model's answer: read back at launch, answered (recorded under a name), or failed.
    enum Settled: Sendable {
        case restored, answered, failed
    }

    /// One ask of a model that settled, or the answer a launch read back.
    struct Outcome: Sendable {
        var kind: SoakKind
        var name: AskName
        var atMs: Int64
        var settled: Settled
    }

    /// The largest a sealed file was written and when.
    struct Peak: Sendable {
        var bytes: Int
        var atMs: Int64
    }

    var steps: [Step] = []
    var streamReturns: [Int64] = []
    /// When the relay moved the phone's room at the hour's turn (its carrier closed 4410 with no `relay rotate`).
    var hourTurns: [Int64] = []
    /// When a return joined this hour's room before the relay brought the box there, and waited for it.
    var boxWaits: [Int64] = []
    var outcomes: [Outcome] = []
    /// The largest each sealed file was written, by its kind (`ring`, `tiles`, …).
    var peakFiles: [String: Peak] = [:]
    var samples: [SoakMemorySample] = []
    var asks: [AskRecord] = []
    var received: [ReceivedRequest] = []
    var sentBytes = 0
    var receivedBytes = 0
}
