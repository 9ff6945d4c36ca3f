import FTWClient
import FTWHeadlessTooling
import Foundation
import Testing

/// `network change` (the platform's path monitor telling the client), against the embedded box on the simulated
/// clock: what the stay's timeline says.
@Suite struct NetworkChangeScenarioTests {
    /// A box that never answers hello backs the phone off for longer and longer; at 10:05:53.567 the wait before the
    /// next try is 57.6 s (the seeded jitter), and the network changes 16.4 s into it.
    private static func play(changing: Bool) async throws -> ScenarioReport {
        let text = """
            at 10:01:00 box fail hello timeout always; launch; inactive; active; view now
            at 10:06:10 \(changing ? "network change" : "wait 0ms")
            wait 2m; background
            """
        let report = try await ScenarioRunner(scenario: ScenarioParser.parse(text), name: "network").run().report
        #expect(report.errors.isEmpty, "\(report.errors)")
        return report
    }

    @Test func aNetworkChangeDuringAThirtySecondBackoffDialsAtOnce() async throws {
        let report = try await Self.play(changing: true)
        let changed = try #require(report.stays.first).timeline
        let change = try #require(changed.firstIndex { $0.kind == .networkChange })
        let lastClose = try #require(changed[..<change].last)
        #expect(lastClose.kind == .close)
        #expect(changed[change + 1].kind == .dial)
        #expect(changed[change + 1].atMs == changed[change].atMs, "the dial comes at once")

        let unchanged = try #require(try await Self.play(changing: false).stays.first).timeline
        let backoff = try #require(unchanged.first { $0.kind == .dial && $0.atMs > lastClose.atMs })
        #expect(backoff.atMs - changed[change].atMs >= 30_000, "without it, the next try was 30 s or more away")

        let shown = ReportPrinter(timeZone: .gmt, showsTimeline: true).text(of: report)
        #expect(shown.contains("      09:06:10.000  network change\n      09:06:10.000  dial (attempt "), "\(shown)")
    }

    @Test func aLiveStreamIsKeptThroughANetworkChange() async throws {
        let report = try await ScenarioRunner(
            scenario: ScenarioParser.parse(
                "at 10:01 launch; inactive; active; wait 5s; network change; wait 30s; background"
            ),
            name: "network"
        ).run().report
        let timeline = try #require(report.stays.first).timeline
        #expect(timeline.map(\.kind) == [.dial, .handshake, .helloOK, .live, .networkChange, .close])
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains(#""kind":"network_change""#))
    }

    @Test func theStepReadsAndAWrongOneIsNamed() throws {
        #expect(try ScenarioParser.parse("launch; network change").steps == [.launch, .networkChange])
        #expect(throws: ScenarioError(line: 1, "the network's step is 'network change'")) {
            try ScenarioParser.parse("launch; network down")
        }
    }
}
