import FTWBoxProtocol
import FTWDemoBox
import FTWHeadlessTooling
import Testing

/// The verbs that let a scenario say the rules the first grammar could not: a box update, one failing read, the
/// relay's words, a person's command, times with milliseconds and spans of days (docs/scenarios.md).
@Suite struct ScenarioVerbParserTests {
    @Test func everyNewVerbReadsAsItsStep() throws {
        let scenario = try ScenarioParser.parse(
            """
            box update 2.1-rc1; box fail chargers timeout; box fail history busy always; box fail prefs refused once
            box fail plan malformed; box fail prices off
            relay rotate; relay skew -1; relay slow-down; relay restart
            at 10:00:20.5 launch
            command mode idle; command hold 3000; command hold 1500 for 30m; command hold off
            command boost 2h; command boost off
            wait 3d
            """
        )
        #expect(
            scenario.steps == [
                .box(.update(build: "2.1-rc1")),
                .box(.failRead(ReadFault(read: .chargers, kind: .timeout, always: false))),
                .box(.failRead(ReadFault(read: .history, kind: .busy, always: true))),
                .box(.failRead(ReadFault(read: .prefs, kind: .refused, always: false))),
                .box(.failRead(ReadFault(read: .plan, kind: .malformed, always: false))),
                .box(.stopFailing(.prices)),
                .relay(.rotate), .relay(.skew(hours: -1)), .relay(.slowDown), .relay(.restart),
                .at(timeOfDayMs: 36_020_500), .launch,
                .command(.mode(.idle)), .command(.hold(watts: 3000, for: nil)),
                .command(.hold(watts: 1500, for: .seconds(1800))), .command(.releaseHold),
                .command(.boost(.seconds(7200))), .command(.cancelBoost),
                .wait(.seconds(3 * 86_400)),
            ]
        )
    }

    @Test(arguments: [
        ("at 10:00:00.1", 36_000_100), ("at 10:00:00.25", 36_000_250), ("at 23:59:59.999", 86_399_999),
        ("at 10:00", 36_000_000),
    ])
    func timesOfDayCarryMilliseconds(text: String, expected: Int64) throws {
        #expect(try ScenarioParser.parse(text).steps == [.at(timeOfDayMs: expected)])
    }

    @Test(arguments: [
        ("at 10:00.5", "line 1: a time is written HH:MM, HH:MM:SS or HH:MM:SS.mmm, not '10:00.5'"),
        ("at 10:00:00.1234", "line 1: a time is written HH:MM, HH:MM:SS or HH:MM:SS.mmm, not '10:00:00.1234'"),
        ("at 10:00:00.", "line 1: a time is written HH:MM, HH:MM:SS or HH:MM:SS.mmm, not '10:00:00.'"),
        ("at 10:00:00.x", "line 1: a time is written HH:MM, HH:MM:SS or HH:MM:SS.mmm, not '10:00:00.x'"),
        ("at +9:00", "line 1: a time is written HH:MM, HH:MM:SS or HH:MM:SS.mmm, not '+9:00'"),
        (
            "box fail kitchen timeout",
            "line 1: unknown read 'kitchen'; reads are chargers, prefs, plan, status, prices, history, hello"
        ),
        (
            "box fail plan slow",
            "line 1: a read fails by timeout, busy, malformed, refused or denied (or 'off' lifts it), not 'slow'"
        ),
        ("box fail plan busy twice", "line 1: a read fails 'once' or 'always', not 'twice'"),
        (
            "box fail plan off always",
            "line 1: a read fails by timeout, busy, malformed, refused or denied (or 'off' lifts it), not 'off'"
        ),
        ("box update ftw·2", "line 1: a build is 1 to 64 printable ASCII characters, not 'ftw·2'"),
        (
            "box update \(String(repeating: "x", count: 65))",
            "line 1: a build is 1 to 64 printable ASCII characters, not '\(String(repeating: "x", count: 65))'"
        ),
        ("relay skew 25", "line 1: the relay's skew is whole hours from -24 to 24, not '25'"),
        ("relay skew 1h", "line 1: the relay's skew is whole hours from -24 to 24, not '1h'"),
        ("relay shout", "line 1: a relay word is 'rotate', 'skew HOURS', 'slow-down' or 'restart'"),
        ("relay rotate now", "line 1: a relay word is 'rotate', 'skew HOURS', 'slow-down' or 'restart'"),
        (
            "command mode turbo",
            "line 1: unknown mode 'turbo'; modes are planner_passive_arbitrage, planner_arbitrage, idle, "
                + "self_consumption, peak_shaving, charge, planner_self, planner_cheap, priority, weighted"
        ),
        ("command hold lots", "line 1: a power is whole watts from 0 to 1000000, not 'lots'"),
        ("command hold 3000 for soon", "line 1: a duration is written like 500ms, 5s, 2m, 1h, 3d or 1m30s, not 'soon'"),
        (
            "command dance",
            "line 1: a command is 'mode MODE', 'hold WATTS [for DURATION]', 'hold off', 'boost DURATION' or 'boost off'"
        ),
    ])
    func aMistakeInANewVerbNamesItsLine(text: String, expected: String) {
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse(text) }
        #expect(error?.description == expected)
    }

    @Test func relayWordsAndBoxKnobsBeforeTheFirstAtDoNotStartTheClock() throws {
        // The span counts from the first `at` when only knobs come before it: a whole 31 days fit after 00:00.
        let scenario = try ScenarioParser.parse("relay skew 1\nbox update 2\nat 00:00 launch\nwait 31d")
        #expect(scenario.steps.count == 5)
    }

    @Test func everyStepWritesBackAsTheScenarioSaysIt() throws {
        let text =
            "box update 2.1; box fail chargers busy always; box fail plan off; box latency 1m30s; box publish 09:05"
        let knobs = try ScenarioParser.parse(text).steps.map { step -> String in
            guard case .box(let knob) = step else { return "?" }
            return "box \(knob)"
        }
        #expect(knobs.joined(separator: "; ") == text)
        let words = "relay rotate; relay skew -3; relay slow-down; relay restart"
        let relay = try ScenarioParser.parse(words).steps.map { step -> String in
            guard case .relay(let knob) = step else { return "?" }
            return "relay \(knob)"
        }
        #expect(relay.joined(separator: "; ") == words)
    }

    @Test func aCommandWritesBackAsTheScenarioSaysIt() {
        #expect("\(PersonCommand.hold(watts: 1500, for: .seconds(5400)))" == "hold 1500 for 1h30m")
        #expect("\(PersonCommand.boost(.milliseconds(86_400_250)))" == "boost 1d250ms")
        #expect("\(PersonCommand.mode(.selfConsumption))" == "mode self_consumption")
    }
}
