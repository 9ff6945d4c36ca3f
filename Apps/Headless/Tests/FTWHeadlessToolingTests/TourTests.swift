import FTWCache
import FTWHeadlessTooling
import Foundation
import Testing

/// The seed's table: request frames per stay over the relay-path tour (a first stay, then returns after 30 s,
/// 30 s, 2 min and 30 s in the background), from the headless app against the in-process demo box.
@Suite struct TourTests {
    @Test func theAgeKeyedPolicyCostsSixZeroOneOneZero() async throws {
        let (report, _) = try await ScenarioRunner(scenario: BuiltInScenario.load("tour"), name: "tour").run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.requestsPerStay == [6, 0, 1, 1, 0])
        #expect(report.stays.dropFirst().allSatisfy { $0.requests.allSatisfy { $0 == "api.req GET /api/loadpoints" } })
    }

    @Test func theOldPolicyCostsFourOnEveryStay() async throws {
        let (report, _) = try await ScenarioRunner(
            scenario: BuiltInScenario.load("tour"),
            name: "tour",
            policy: .everyReturn
        ).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.requestsPerStay == [4, 4, 4, 4, 4])
    }

    @Test func theTableComparesBothRowsAndTheirRatio() async throws {
        let scenario = try BuiltInScenario.load("tour")
        let (new, _) = try await ScenarioRunner(scenario: scenario, name: "tour", policy: .ageKeyed).run()
        let (old, _) = try await ScenarioRunner(scenario: scenario, name: "tour", policy: .everyReturn).run()
        let table = ReportPrinter(timeZone: .gmt).table(ageKeyed: new, everyReturn: old)
        #expect(table.contains("age-keyed (this client)      6   0   1   1   0      8"))
        #expect(table.contains("every-return (old app)       4   4   4   4   4     20"))
        #expect(table.contains("ratio of totals: 2.50×"))
        #expect(TourDocument(ageKeyed: new, everyReturn: old).ratio == 2.5)
    }

    /// A box built from the public route table has no planner-preferences route: the first stay's refusal is
    /// sealed with the box's build, so no later stay, no relaunch after a kill and no return asks for prefs again.
    @Test func aBoxWithoutThePrefsRouteIsAskedOnceThenNeverAgainThroughAKill() async throws {
        let tour = try ScenarioParser.parse(
            "prefs off\n" + (try String(contentsOf: BuiltInScenario.url("tour"), encoding: .utf8))
                + "\nkill\nwait 1m\nlaunch; inactive; active; view now; wait 10s; background"
        )
        let (report, _) = try await ScenarioRunner(scenario: tour, name: "tour").run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.requestsPerStay.prefix(5) == [6, 0, 1, 1, 0])
        let prefs = report.stays.map { $0.requests.filter { $0.contains("/api/planner/preferences") }.count }
        #expect(prefs == [1, 0, 0, 0, 0, 0], "asked once, on the first stay, and never after")
        #expect(report.stays.last?.launched == true)
    }
}
