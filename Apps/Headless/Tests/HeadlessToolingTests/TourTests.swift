import Cache
import Foundation
import HeadlessTooling
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
}
