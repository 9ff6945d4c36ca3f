import FTWCache
import FTWHistory

extension HeadlessClient {
    /// A view appeared: the models it shows start looking.
    public func show(_ view: ViewName) {
        for model in models(of: view) { model.send(.viewAppeared) }
        if view.isNode { history.send(.nodeViewAppeared) }
        if view == .widget { history.send(.gridWantsWindow) }
    }

    /// A view went away.
    public func hide(_ view: ViewName) {
        for model in models(of: view) { model.send(.viewGone) }
        if view.isNode { history.send(.nodeViewGone) }
    }

    /// A pull to refresh on a view: a person's ask, which always sends; on a node view or the widget it re-asks the
    /// history window the view shows.
    public func refresh(_ view: ViewName) {
        for model in models(of: view) { model.send(.refresh) }
        if view.isNode || view == .widget { history.send(.refresh) }
    }

    /// The age-keyed models a view shows: the home screen shows the chargers, the planner's preferences, the plan
    /// and the prices; each sheet shows its own.
    func models(of view: ViewName) -> [any AskingModel] {
        switch view {
        case .now: [chargers, prefs, plan, prices]
        case .plan: [plan]
        case .prices: [prices]
        case .chargers: [chargers]
        case .status: [status]
        case .battery, .grid, .pv, .load, .ev, .widget: []
        }
    }
}
