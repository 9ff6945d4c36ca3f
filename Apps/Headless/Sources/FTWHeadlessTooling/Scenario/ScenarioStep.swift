public import FTWClient
import FTWClockSeam
public import FTWSessionInterface

/// One step of a scenario: a lifecycle event, a view, a wait, a person's command, or a turn of one of the demo box's
/// or the relay's knobs.
public enum ScenarioStep: Sendable, Hashable {
    /// Jumps the simulated clock forward to this local time of day (ms after midnight); never backwards.
    case at(timeOfDayMs: Int64)
    /// The process starts: modules are built and read their sealed files.
    case launch
    /// The process is killed: nothing more is written.
    case kill
    /// The scene moves to a phase.
    case phase(ScenePhase)
    /// A view appears.
    case show(ViewName)
    /// A view goes away.
    case hide(ViewName)
    /// A pull to refresh on a view.
    case refresh(ViewName)
    /// Time passes.
    case wait(Duration)
    /// The demo box changes.
    case box(BoxKnob)
    /// The relay says one of its words.
    case relay(RelayKnob)
    /// A person gives a command; the scenario goes on while it settles.
    case command(PersonCommand)
    /// The phone's network changes (Wi-Fi to cellular): the platform's path monitor tells the client.
    case networkChange
    /// A person looks at the home screen: what it shows, each value with its moment and basis, and the connection's
    /// status, go in the stay's report.
    case look

    /// `duration` as a scenario writes it: `3d4h`, `1m30s`, `500ms`.
    static func written(_ duration: Duration) -> String {
        var left = duration.wholeMilliseconds
        guard left > 0 else { return "0ms" }
        var text = ""
        for (unit, ms) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)]
        where left >= ms {
            text += "\(left / ms)\(unit)"
            left %= ms
        }
        return text
    }
}
