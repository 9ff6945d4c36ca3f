/// The chargers, `GET /api/loadpoints`, a minute to live.
public typealias ChargersModel = SiteReadModel<ChargerList>

/// The planner's preferences, `GET /api/planner/preferences`, fifteen minutes to live; hidden on a box without them.
public typealias PrefsModel = SiteReadModel<PlannerPrefs>

/// The box's status, `GET /api/status`, a minute to live.
public typealias StatusModel = SiteReadModel<SiteStatus>
