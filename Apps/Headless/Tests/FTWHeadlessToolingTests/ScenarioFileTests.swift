import FTWHeadlessTooling
import Foundation
import Testing

/// Bad scenario files and paths, as a person meets them: `ftw-headless run` prints one line naming the file and
/// what is wrong on stderr, prints nothing else, and exits 1.
@Suite("Scenario files", .timeLimit(.minutes(1)))
struct ScenarioFileTests {
    static let views = "now, battery, grid, pv, load, ev, plan, prices, chargers, status, widget"

    @Test(
        "a line that does not read is named with its file",
        arguments: [
            ("date 2026-02-30\nlaunch", "line 1: '2026-02-30' is not a calendar day from 2000-01-01 to 2099-12-31"),
            ("date 0000-00-00\nlaunch", "line 1: '0000-00-00' is not a calendar day from 2000-01-01 to 2099-12-31"),
            ("launch\r\nactive\r\nview kitchen\r\n", "line 3: unknown view 'kitchen'; views are \(views)"),
            ("launch\nbox quiet meter.p1 on", "line 2: unknown device 'meter.p1'; devices are sungrow, easee"),
            (
                "launch\nwait 100000h",
                "line 2: this wait takes the scenario past 31 days of simulated time; a scenario spans at most 31 days"
            ),
            (
                "at 00:00 launch\nwait 23h\nat 23:00\nwait 30d1h1ms",
                "line 4: this wait takes the scenario past 31 days of simulated time; a scenario spans at most 31 days"
            ),
            (
                String(repeating: "box cut\n", count: 10_001),
                "line 10001: more than 10000 steps; a scenario has at most 10000"
            ),
        ]
    )
    func aBadLine(text: String, expected: String) async throws {
        let scratch = try ScratchFolder()
        let path = try scratch.file("bad.scenario", text)
        let run = try await HeadlessProcess.run(["run", path])
        #expect(run.errorOutput == "ftw-headless: \(path): \(expected)\n")
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
    }

    @Test(
        "binary, invalid UTF-8 or NUL bytes are not a scenario",
        arguments: [[0x6C, 0xFF, 0xFE, 0x0A], Array("launch\0\n".utf8)]
    )
    func notText(bytes: [UInt8]) async throws {
        let scratch = try ScratchFolder()
        let path = try scratch.file("binary.scenario", bytes)
        let run = try await HeadlessProcess.run(["run", path])
        #expect(
            run.errorOutput
                == "ftw-headless: '\(path)' is not a scenario: it is not UTF-8 text (binary, or another encoding)\n"
        )
        #expect(run.status == 1)
    }

    @Test("a file over 1 MiB is refused before it is read whole")
    func tooLarge() async throws {
        let scratch = try ScratchFolder()
        let path = try scratch.file("large.scenario", String(repeating: "# a long comment\n", count: 70_000))
        let run = try await HeadlessProcess.run(["run", path])
        #expect(run.errorOutput == "ftw-headless: '\(path)' is larger than 1024 KiB, the most a scenario file holds\n")
        #expect(run.status == 1)
    }

    @Test("a folder is not a scenario file")
    func folder() async throws {
        let scratch = try ScratchFolder()
        let run = try await HeadlessProcess.run(["run", scratch.url.path])
        #expect(run.errorOutput == "ftw-headless: '\(scratch.url.path)' is a folder, not a scenario file\n")
        #expect(run.status == 1)
    }

    @Test("a name that is no file and no shipped scenario lists the shipped ones")
    func noSuchScenario() async throws {
        let run = try await HeadlessProcess.run(["run", "no-such-scenario"])
        #expect(
            run.errorOutput
                == "ftw-headless: no file and no shipped scenario is named 'no-such-scenario'; the shipped scenarios "
                + "are across-runs-first, across-runs-second, afternoon-prices, box-update, carrier-cut, "
                + "connection-timeline, failing-read, hour-turn, hour-turn-late-beat, person-command, quiet-device, "
                + "relay-slow-down, relay-words, second-open-tour, silent-box, tour, week-away\n"
        )
        #expect(run.status == 1)
    }

    @Test("a --svg path in no folder is refused before anything runs")
    func svgInNoFolder() async throws {
        let scratch = try ScratchFolder()
        let missing = scratch.url.appendingPathComponent("missing/battery.svg").path
        let run = try await HeadlessProcess.run(["run", "--svg", missing, "quiet-device"])
        #expect(
            run.errorOutput
                == "ftw-headless: --svg '\(missing)': there is no folder '\(scratch.url.path)/missing'\n"
        )
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        let file = try scratch.file("plain", "")
        let underAFile = try await HeadlessProcess.run(["tour", "--svg", file + "/battery.svg"])
        #expect(underAFile.errorOutput == "ftw-headless: --svg '\(file)/battery.svg': there is no folder '\(file)'\n")
        #expect(underAFile.status == 1)
    }

    @Test("CRLF line ends read as the same scenario as LF", arguments: BuiltInScenario.names)
    func crlf(name: String) throws {
        let text = try ScenarioFile.text(atPath: BuiltInScenario.url(name).path)
        let crlf = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        #expect(try ScenarioParser.parse(crlf) == ScenarioParser.parse(text))
    }
}
