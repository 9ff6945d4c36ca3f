import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWSessionInterface

extension SoakTimeline {
    /// Everything in time order, one line each, stamped with the simulated time since `startMs`: steps, frames as
    /// the app sent them (`sent`) and as the box decoded them (`box`), asks that settled, returns of the stream.
    func lines(startMs: Int64) -> [String] {
        var rows: [(atMs: Int64, text: String)] = steps.map { ($0.atMs, "step \(Self.describe($0.step))") }
        rows += asks.map { ($0.atMs, "sent \($0.type) #\($0.id) \($0.detail)") }
        rows += received.map { ($0.atMs, "box \($0.type) #\($0.id ?? 0) \($0.detail)") }
        rows += outcomes.map { ($0.atMs, "\($0.kind.rawValue) \($0.settled) '\($0.name)'") }
        rows += streamReturns.map { ($0, "stream returned") }
        rows += hourTurns.map { ($0, "the relay moved the room at the hour's turn (4410)") }
        rows += boxWaits.map { ($0, "waiting in this hour's room for the box") }
        return rows.enumerated()
            .sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }
            .map { "\(SoakFinding.elapsed($0.element.atMs - startMs))  \($0.element.text)" }
    }

    private static func describe(_ step: ScenarioStep) -> String {
        switch step {
        case .at(let timeOfDayMs): "at \(SoakFinding.elapsed(timeOfDayMs))"
        case .launch: "launch"
        case .kill: "kill"
        case .phase(let phase): "\(phase)"
        case .show(let view): "view \(view.rawValue)"
        case .hide(let view): "leave \(view.rawValue)"
        case .refresh(let view): "refresh \(view.rawValue)"
        case .wait(let duration): "wait \(SoakFinding.elapsed(duration.wholeMilliseconds))"
        case .box(let knob): "box \(knob)"
        case .relay(let knob): "relay \(knob)"
        case .command(let command): "command \(command)"
        case .networkChange: "network change"
        case .look: "look"
        }
    }
}
