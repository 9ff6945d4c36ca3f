import FTWClockSeam

/// The simulated time a scenario covers so far, step by step, to refuse one that would run past
/// ``ScenarioParser/maxSpan`` before anything runs.
///
/// The clock starts as the runner starts it: at the first `at` if only box knobs come before it, else at 10:00.
/// Times of day are counted as the clock face reads them.
struct ScenarioSpan {
    private static let defaultStartMs: Int64 = 10 * 3_600_000
    private var startMs: Int64?
    private var clockMs: Int64 = 0

    /// Moves the clock by `step`.
    ///
    /// - Throws: `ScenarioError` on `line` when the step takes the scenario past its bound.
    mutating func add(_ step: ScenarioStep, line: Int) throws(ScenarioError) {
        switch step {
        case .box, .relay: return
        case .at(let timeOfDayMs):
            if startMs == nil { start(at: timeOfDayMs) }
            clockMs = max(clockMs, timeOfDayMs)
        case .wait(let duration):
            if startMs == nil { start(at: Self.defaultStartMs) }
            let leftMs = ScenarioParser.maxSpan.wholeMilliseconds - (clockMs - (startMs ?? clockMs))
            guard duration.wholeMilliseconds <= leftMs else {
                let days = ScenarioParser.maxSpan.wholeMilliseconds / 86_400_000
                throw ScenarioError(
                    line: line,
                    "this wait takes the scenario past \(days) days of simulated time; a scenario spans at most "
                        + "\(days) days"
                )
            }
            clockMs += duration.wholeMilliseconds
        default:
            if startMs == nil { start(at: Self.defaultStartMs) }
        }
    }

    private mutating func start(at timeOfDayMs: Int64) {
        startMs = timeOfDayMs
        clockMs = timeOfDayMs
    }
}
