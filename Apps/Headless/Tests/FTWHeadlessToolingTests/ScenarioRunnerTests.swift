import FTWClient
import FTWHeadlessTooling
import Foundation
import Testing

/// Scenarios a person would notice: the second open, a cut mid-read, and mistakes named by their line.
@Suite struct ScenarioRunnerTests {
    @Test func afterAKillHistoryAndTheTraceDrawBeforeAnythingConnects() async throws {
        let (report, picture) = try await ScenarioRunner(
            scenario: BuiltInScenario.load("second-open-tour"),
            name: "second-open-tour"
        ).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let relaunch = try #require(report.stays.last)
        #expect(relaunch.launched)
        let drawn = try #require(relaunch.drawnBeforeConnect)
        #expect(drawn.tracePoints == 1064 && drawn.traceFields == 7)
        #expect(drawn.historySteps == 2296)
        #expect(drawn.models["chargers"] == true && drawn.models["plan"] == true && drawn.models["snapshot"] == true)
        #expect(relaunch.firstContentMs == 0, "the first frame draws from the sealed files")
        #expect(relaunch.liveMs != nil, "and the known device reconnects without its spent pairing code")
        let svg = try #require(picture).render()
        #expect(svg.contains("<title>missed</title>"), "the time the app missed is drawn")
        #expect(svg.contains("<title>live head</title>"))
    }

    @Test func aCarrierCutMidReadLosesNothing() async throws {
        let (report, _) = try await ScenarioRunner(
            scenario: BuiltInScenario.load("carrier-cut"),
            name: "carrier-cut"
        ).run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let held = try #require(report.heldAtEnd)
        for model in ["chargers", "prefs", "plan", "prices", "snapshot", "home"] {
            #expect(held.models[model] == true, "\(model) is held after the cut")
        }
        #expect(held.historySteps == 2300)
    }

    @Test func aStayThatNeverWentLiveSaysWhy() async throws {
        let scenario = try ScenarioParser.parse(
            """
            date 2026-12-02
            box latency 20s
            at 10:01:00 launch; inactive; active; view now
            wait 30s
            background
            """
        )
        let (report, _) = try await ScenarioRunner(scenario: scenario, name: "slow-relay").run()
        let stay = try #require(report.stays.first)
        #expect(stay.liveMs == nil)
        let why = try #require(stay.notLiveBecause)
        #expect(why.hasPrefix("the connection closed: "), "\(why)")
        let printed = ReportPrinter(timeZone: .gmt).text(of: report).split(separator: "\n")
        #expect(printed.contains("    never live: \(why)"))
    }

    @Test(arguments: [
        ("view now", "line 1: the app is not running; 'launch' it first"),
        ("launch\nwait 2m\nat 00:00:30", "line 3: 'at' is 90 s in the past"),
        ("launch\nlaunch", "line 2: 'launch' while the app is running; 'kill' it first"),
    ])
    func aStepThatCannotRunNamesItsLine(text: String, expected: String) async throws {
        let scenario = try ScenarioParser.parse("at 00:00:00\n" + text)
        do {
            _ = try await ScenarioRunner(scenario: scenario, name: "bad").run()
            Issue.record("ran")
        } catch let error as ScenarioError {
            #expect(ScenarioError(line: error.line - 1, error.message).description == expected)
        }
    }
}
