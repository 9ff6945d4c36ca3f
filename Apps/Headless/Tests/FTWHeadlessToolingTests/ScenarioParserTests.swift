import FTWCache
import FTWClient
import FTWHeadlessTooling
import FTWSessionInterface
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ScenarioParserTests {
    @Test func aTourReadsAsItsSteps() throws {
        let scenario = try ScenarioParser.parse(
            """
            # the second open
            date 2026-12-02
            timezone Europe/Stockholm
            policy every-return
            at 10:01:00 launch; inactive; active; view battery
            wait 1m30s; background   # gone for a while
            box latency 120ms; box prices-late on; box quiet sungrow off; box publish 13:30
            refresh now; leave battery; box cut; box reboot; kill
            """
        )
        #expect(scenario.settings == ScenarioSettings(date: "2026-12-02", policy: .everyReturn))
        #expect(
            scenario.steps == [
                .at(timeOfDayMs: 36_060_000), .launch, .phase(.inactive), .phase(.active), .show(.battery),
                .wait(.seconds(90)), .phase(.background),
                .box(.relayLatency(.milliseconds(120))), .box(.pricesLate(true)),
                .box(.deviceQuiet(source: "sungrow", false)), .box(.publishAt(minutes: 810)),
                .refresh(.now), .hide(.battery), .box(.cutCarriers), .box(.reboot), .kill,
            ]
        )
        #expect(scenario.lines.map(\.number).first == 5)
    }

    @Test(arguments: ["500ms", "5s", "2m", "1h", "1m30s", "1h2m3s4ms"])
    func durationsRead(text: String) throws {
        let scenario = try ScenarioParser.parse("wait \(text)")
        guard case .wait(let duration) = scenario.steps.first else {
            Issue.record("not a wait")
            return
        }
        #expect(duration > .zero)
    }

    @Test(arguments: [
        ("launch\nactve", "line 2: unknown step 'actve'"),
        (
            "view kitchen",
            "line 1: unknown view 'kitchen'; views are now, battery, grid, pv, load, ev, plan, prices, chargers, status, widget"
        ),
        ("wait soon", "line 1: a duration is written like 500ms, 5s, 2m, 1h, 3d or 1m30s, not 'soon'"),
        ("at 25:00 launch", "line 1: a time is written HH:MM, HH:MM:SS or HH:MM:SS.mmm, not '25:00'"),
        ("at 11:00\nat 10:00", "line 2: 'at' goes back in time; times must not decrease"),
        ("launch\ndate 2026-12-03", "line 2: 'date' belongs before the first step"),
        ("timezone Mars/Olympus\nlaunch", "line 1: unknown time zone 'Mars/Olympus'"),
        ("box prices-late maybe", "line 1: expected 'on' or 'off', not 'maybe'"),
        (
            "box teleport",
            "line 1: a box knob is 'prices-late on|off', 'publish HH:MM', 'quiet SOURCE on|off', 'cut', 'silent [DURATION|off]', 'latency DURATION', 'reboot', 'update BUILD' or 'fail READ KIND [once|always]'"
        ),
        ("kill now", "line 1: 'kill' takes no argument"),
        ("# nothing here\n", "line 1: the scenario has no steps"),
        ("policy lazy\nlaunch", "line 1: a policy is 'age-keyed' or 'every-return', not 'lazy'"),
        ("wait 1s2h", "line 1: a duration is written like 500ms, 5s, 2m, 1h, 3d or 1m30s, not '1s2h'"),
        ("wait 1s1s", "line 1: a duration is written like 500ms, 5s, 2m, 1h, 3d or 1m30s, not '1s1s'"),
        ("wait h", "line 1: a duration is written like 500ms, 5s, 2m, 1h, 3d or 1m30s, not 'h'"),
        ("wait 5", "line 1: a duration is written like 500ms, 5s, 2m, 1h, 3d or 1m30s, not '5'"),
        ("wait 48h", nil),
        ("wait 31d", nil),
        (
            "wait 31d1ms",
            "line 1: this wait takes the scenario past 31 days of simulated time; a scenario spans at most 31 days"
        ),
        ("date 2026-02-29\nlaunch", "line 1: '2026-02-29' is not a calendar day from 2000-01-01 to 2099-12-31"),
        ("date 2028-02-29\nlaunch", nil),
        ("date 2100-01-01\nlaunch", "line 1: '2100-01-01' is not a calendar day from 2000-01-01 to 2099-12-31"),
    ])
    func aBadFileNamesTheLineAndWhatIsWrong(text: String, expected: String?) {
        do {
            _ = try ScenarioParser.parse(text)
            #expect(expected == nil, "read")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("a line of many 'at's reaches the step bound in linear time", .timeLimit(.minutes(1)))
    func manyAtsOnOneLine() {
        let line = String(repeating: "at 10:00 ", count: ScenarioParser.maxBytes / 9)
        let started = Self.threadProcessorTime()
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse(line) }
        #expect(error?.description == "line 1: more than 10000 steps; a scenario has at most 10000")
        let spent = Self.threadProcessorTime() - started
        #expect(spent < .seconds(5), "a quadratic read of 116 000 steps takes minutes")
    }

    /// The calling thread's processor time: what the parse itself costs, however busy the rest of the run keeps the
    /// cores (on the wall clock, a full run's other threads stretched a 0.1 s parse past 5 s).
    private static func threadProcessorTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    @Test("a text over 1 MiB is refused before it is read")
    func tooLarge() {
        let error = #expect(throws: ScenarioError.self) {
            try ScenarioParser.parse(String(repeating: "#", count: ScenarioParser.maxBytes + 1))
        }
        #expect(error?.description == "line 1: the scenario is larger than 1024 KiB; a scenario is at most that")
    }
}
