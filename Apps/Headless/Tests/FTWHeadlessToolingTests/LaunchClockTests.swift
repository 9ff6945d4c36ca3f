import FTWClient
import FTWFixtures
import FTWHeadlessTooling
import Foundation
import Testing

/// The launch clock, run as a person runs it: real `ftw-headless` child processes against the demo box behind a
/// loopback relay. Only the order of the stages and what was drawn are asserted; the times are the command's to
/// print, never a test's to judge.
@Suite("Launch clock")
struct LaunchClockTests {
    /// `ftw-headless` beside the test bundle, in the build's products folder.
    static let executable = BuiltProduct.url("ftw-headless")

    @Test("a cold launch with sealed files draws them before live and writes nothing; without, it draws nothing")
    func coldLaunches() async throws {
        let report = try await LaunchClock(
            launches: 2,
            latency: .zero,
            executable: Self.executable,
            baseline: BuiltProduct.found("ftw-launch-baseline")
        )
        .measure()
        #expect(report.writtenAtLaunch == [])
        #expect(report.withFiles.launches.count == 2)
        #expect(report.withoutFiles.launches.count == 2)
        for launch in report.withFiles.launches {
            #expect(launch.drawn.historySteps > 0)
            #expect(launch.drawn.tracePoints > 0)
            #expect(launch.drawn.models["prices"] == true)
            #expect(launch.drawn.models["plan"] == true)
        }
        for launch in report.withoutFiles.launches {
            #expect(launch.drawn.isEmpty)
        }
        // The C baseline opens every sealed file the stay left, the pairing record among them.
        #expect(report.baseline?.runs.count == 2)
        for run in report.baseline?.runs ?? [] {
            #expect(run.files >= 7)
            #expect(0 < run.mainMs && run.mainMs <= run.contentMs)
            #expect(run.contentCPUMs > 0)
        }
        for launch in report.withFiles.launches + report.withoutFiles.launches {
            #expect(0 < launch.mainMs)
            #expect(launch.mainMs <= launch.builtMs)
            #expect(launch.builtMs <= launch.contentMs)
            #expect(launch.contentMs <= launch.liveMs)
            #expect(launch.contentCPUMs > 0, "the processor time at the first content is read in every launch")
        }
    }

    /// Found by running `--launches 16`: the 30th join of the relay's minute (the box's uplink, the pairing, the first
    /// stay and two launches an iteration) met `slow down`, and the launch waited out its 10 s for nothing live.
    @Test("sixteen launches of each kind, more joins than the relay allows a minute, all go live")
    func moreLaunchesThanTheJoinAllowance() async throws {
        let report = try await LaunchClock(launches: 16, latency: .zero, executable: Self.executable).measure()
        #expect(report.withFiles.launches.count == 16)
        #expect(report.withoutFiles.launches.count == 16)
    }

    @Test("the report prints a row for each kind and the share of the wait that is ours")
    func text() {
        let drawn = DrawnFromFiles(tracePoints: 3, traceFields: 1, historySteps: 10, models: ["prices": true])
        let launch = LaunchTimes(mainMs: 5, builtMs: 6, contentMs: 9, contentCPUMs: 7, liveMs: 40, drawn: drawn)
        let report = LaunchClockReport(
            latencyMs: 0,
            withFiles: LaunchSeries([launch]),
            withoutFiles: LaunchSeries([launch])
        )
        #expect(report.text.contains("with sealed files        5.0 (5.0–5.0)     6.0 (6.0–6.0)"))
        #expect(report.text.contains("4.0 ms median, 10.0 % of the time to live"))
        #expect(report.text.contains("3 trace points in 1 fields, 10 history steps, prices"))
    }

    @Test("the report sets the processor time and the instruction count against the C baseline's")
    func countedText() {
        let drawn = DrawnFromFiles(tracePoints: 3, traceFields: 1, historySteps: 10, models: ["prices": true])
        let launch = LaunchTimes(mainMs: 5, builtMs: 6, contentMs: 9, contentCPUMs: 6, liveMs: 40, drawn: drawn)
        let run = LaunchBaselineTimes(mainMs: 2, contentMs: 3, contentCPUMs: 4, files: 9, plainBytes: 7_000)
        let report = LaunchClockReport(
            latencyMs: 0,
            withFiles: LaunchSeries([launch]),
            withoutFiles: LaunchSeries([launch]),
            baseline: LaunchBaseline([run]),
            instructions: LaunchInstructions(client: 16_500_000, baseline: 11_000_000)
        )
        #expect(report.text.contains("6.0 ms (6.0–6.0) against the C baseline's 4.0 ms (4.0–4.0): 1.50× (medians)"))
        #expect(report.text.contains("16.50 M against the C baseline's 11.00 M: 1.50× (target at most 1.5×)"))
        #expect(report.text.contains("3.00× by the wall clock"))
    }

    @Test("medians of an even count average the middle two")
    func spread() {
        #expect(LaunchSpread([4, 1, 3, 2]) == LaunchSpread(median: 2.5, min: 1, max: 4))
        #expect(LaunchSpread([]) == LaunchSpread(median: 0, min: 0, max: 0))
    }
}
