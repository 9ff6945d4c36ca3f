import FTWHeadlessTooling
import Testing

/// cache.md §1: a pull to refresh on a node view or the widget re-asks the history window the view shows, and
/// always sends, even while the window stands.
@Suite struct NodeRefreshTests {
    /// The history queries the first stay sent, with `refresh` between opening the view and leaving.
    private func historyQueries(_ view: String, refresh: Bool) async throws -> Int {
        let scenario = try ScenarioParser.parse(
            """
            date 2026-12-02
            box latency 120ms
            at 10:01:00 launch; inactive; active; view \(view)
            wait 10s
            \(refresh ? "refresh \(view)" : "")
            wait 10s
            background
            """
        )
        let (report, _) = try await ScenarioRunner(scenario: scenario, name: "refresh-\(view)").run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let stay = try #require(report.stays.first)
        return stay.requests.filter { $0.hasPrefix("hist.query") }.count
    }

    /// Found by trying it: `refresh battery` sent nothing, the history had no pull to refresh.
    @Test(arguments: ["battery", "widget"])
    func aRefreshOnANodeViewSendsExactlyOneHistoryQuery(view: String) async throws {
        let opened = try await historyQueries(view, refresh: false)
        let refreshed = try await historyQueries(view, refresh: true)
        #expect(opened == 2, "the priming: the tile still filling, then the rest")
        #expect(refreshed == opened + 1)
    }
}
