import FTWBoxProtocol

/// One `hist.query` of a load and the tiles the box will plan for it: what a landing tile is checked against.
struct PlannedRead: Sendable {
    let query: HistQuery
    let tiles: [TileRef]

    init(_ plan: HistoryPlan, query: HistQuery) {
        self.query = query
        self.tiles = plan.tiles
    }

    /// The reads that bring the window ending at `nowMs` up to date, in the order they are sent.
    ///
    /// When a closed tile is missing too, the tile still filling goes first on its own, so the newest hours draw
    /// before the older ones arrive; the rest follows as a second query. Otherwise one query covers the window and
    /// `have` lets the box send only the tile still filling and any closed tile that changed. The split is skipped
    /// when its parts would come at another stride than the window (a small `maxPoints`): the tiles must be the
    /// window's.
    static func reads(
        for held: HeldHistory,
        nowMs: Int64,
        configuration: HistoryModel.Configuration
    ) -> [PlannedRead] {
        let window = configuration.windowPlan(nowMs: nowMs)
        let whole = read(window, held: held, configuration: configuration)
        guard let open = window.tiles.last, open.partial, held.lacksClosedTile(of: window) else { return [whole] }
        let newest = configuration.plan(fromMs: open.startMs, toMs: window.toMs, nowMs: nowMs)
        let rest = configuration.plan(fromMs: window.fromMs, toMs: open.startMs, nowMs: nowMs)
        guard newest.stride == window.stride, rest.stride == window.stride else { return [whole] }
        return [
            read(newest, held: held, configuration: configuration),
            read(rest, held: held, configuration: configuration),
        ]
    }

    private static func read(
        _ plan: HistoryPlan,
        held: HeldHistory,
        configuration: HistoryModel.Configuration
    ) -> PlannedRead {
        PlannedRead(
            plan,
            query: HistQuery(
                series: configuration.series,
                res: configuration.resolution,
                fromMs: plan.fromMs,
                toMs: plan.toMs,
                have: held.have(in: plan),
                maxPoints: configuration.maxPoints
            )
        )
    }
}
