import FTWCache
import FTWHeadlessTooling
import Testing

/// A day in Stockholm on 2026-12-02 played against the embedded demo box under the age-keyed policy: the suites that
/// check cache.md's rules where a phone meets them write only the steps.
enum AgeKeyedDay {
    /// Plays `text` after the day's header; the run must agree frame by frame with the box.
    static func stays(_ name: String, _ text: String) async throws -> [StayReport] {
        let scenario = try ScenarioParser.parse("date 2026-12-02\ntimezone Europe/Stockholm\n" + text)
        let (report, _) = try await ScenarioRunner(scenario: scenario, name: name, policy: .ageKeyed).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        return report.stays
    }
}
