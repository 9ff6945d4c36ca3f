public import FTWClient
public import SessionInterface

/// One step of a scenario: a lifecycle event, a view, a wait, or a turn of one of the demo box's knobs.
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
}
