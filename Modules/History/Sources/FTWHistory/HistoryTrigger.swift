/// Something a person does that may make the history ask: a node's view appears or goes, the grid widget wants
/// the window, or a pull to refresh.
public enum HistoryTrigger: Sendable, Hashable {
    /// A node's view (its history chart) appeared: someone starts looking, and while it stays open the window is
    /// asked again each time the five minutes turn.
    case nodeViewAppeared
    /// A node's view went away: the five minutes turning no longer ask anything.
    case nodeViewGone
    /// The grid widget wants the window once: it joins a load already on the wire, and asks only when the window
    /// it would get does not stand.
    case gridWantsWindow
    /// A pull to refresh on a node view or the widget: a person's ask, which re-asks the window the view shows, first
    /// in the read order, even while the window stands.
    case refresh
}
