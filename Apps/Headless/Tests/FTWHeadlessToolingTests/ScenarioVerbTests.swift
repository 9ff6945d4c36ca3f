import FTWClient
import FTWDemoBox
import FTWHeadlessTooling
import Foundation
import Testing

/// Each new verb's effect through the runner, against the embedded box on the simulated clock: what the box received,
/// what the stay's report and timeline say.
@Suite struct ScenarioVerbTests {
    private func run(_ text: String, name: String = "verb") async throws -> ScenarioReport {
        try await ScenarioRunner(scenario: ScenarioParser.parse(text), name: name).run().report
    }

    private func shipped(_ name: String) async throws -> ScenarioReport {
        try await ScenarioRunner(scenario: BuiltInScenario.load(name), name: name).run().report
    }

    private static func frames(_ stay: StayReport, _ path: String) -> Int {
        stay.requests.filter { $0.hasSuffix(path) }.count
    }

    // MARK: box update

    /// cache.md §1: a route refused for a build (E_UNKNOWN_OP) is not asked again until the build changes.
    @Test func aRouteRefusedUnderTheOldBuildIsAskedAgainUnderTheNewOne() async throws {
        let report = try await shipped("box-update")
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.stays.map { Self.frames($0, "/api/planner/preferences") } == [1, 0, 1])
        #expect(report.stays.map { $0.failedReads.map(\.what) } == [["prefs"], [], []])
        let builds = report.stays.map { $0.timeline.compactMap(\.build) }
        #expect(builds == [["ftw-demobox"], ["ftw-demobox"], ["ftw-demobox-2"]])
    }

    // MARK: box fail

    /// The reads a model asks (hello is the session's own, played in `connection-timeline`).
    static let modelReads: [BoxRead] = BoxRead.allCases.filter { $0 != .hello }

    /// The view that shows each read, and its request frame's tail.
    private static let views: [BoxRead: (view: String, frame: String)] = [
        .chargers: ("chargers", "GET /api/loadpoints"), .prefs: ("now", "GET /api/planner/preferences"),
        .plan: ("plan", "plan.get plan"), .status: ("status", "GET /api/status"),
        .prices: ("prices", "price.get"), .history: ("battery", "hist.query"),
    ]

    /// The first stay of a scenario that opens the read's view, fails it as `kind` and pulls to refresh, then pulls
    /// again once the fault is spent.
    private func failOnce(_ read: BoxRead, _ kind: ReadFault.Kind) async throws -> StayReport {
        let (view, _) = try #require(Self.views[read])
        let report = try await run(
            """
            box latency 120ms
            at 10:01:00 launch; inactive; active; view \(view)
            wait 5s; box fail \(read.rawValue) \(kind.rawValue); refresh \(view); wait 90s
            refresh \(view); wait 30s
            background
            """
        )
        #expect(report.errors.isEmpty, "\(report.errors)")
        return try #require(report.stays.first)
    }

    private func count(_ stay: StayReport, _ read: BoxRead) -> Int {
        let frame = Self.views[read]?.frame ?? "?"
        return stay.requests.filter { $0.contains(frame) }.count
    }

    @Test(arguments: Self.modelReads)
    func aReadThatNeverAnswersFailsAloneAndIsNamed(read: BoxRead) async throws {
        let stay = try await failOnce(read, .timeout)
        let failed = stay.failedReads.filter { $0.what == read.rawValue }
        #expect(failed.count == 1, "\(stay.failedReads)")
        #expect(failed.first?.why.hasPrefix("the box said nothing on ") == true, "\(failed)")
        #expect(failed.first?.olderAnswerShown == true, "the answer of the first look stays on screen")
        #expect(stay.failedReads.allSatisfy { $0.what == read.rawValue }, "no other read failed")
    }

    @Test(arguments: Self.modelReads)
    func aRefusedReadIsTheBoxsUnknownOp(read: BoxRead) async throws {
        let stay = try await failOnce(read, .refused)
        let failed = stay.failedReads.filter { $0.what == read.rawValue }
        #expect(failed.first?.why.contains("E_UNKNOWN_OP") == true, "\(stay.failedReads)")
    }

    /// Issue 24: a malformed `plan`, `price` or `hist.chunk` read as silence and failed at the read's deadline as
    /// "the box said nothing". It fails as it arrives (the pull at 10:01:05, 120 ms each way), said as the box having
    /// sent what it should not; an API body that is not JSON is the model's to refuse, at once too.
    @Test(arguments: Self.modelReads)
    func aMalformedAnswerFailsTheReadAsItArrives(read: BoxRead) async throws {
        let stay = try await failOnce(read, .malformed)
        let failed = stay.failedReads.filter { $0.what == read.rawValue }
        #expect(failed.count == 1, "\(stay.failedReads)")
        let pulledAtMs = stay.beganAtMs + 5_000
        #expect(failed.first.map { $0.atMs - pulledAtMs < 1_000 } == true, "\(failed)")
        let said =
            [.plan, .prices, .history].contains(read) ? "the box sent what it should not: " : ""
        #expect(failed.first?.why.hasPrefix(said) == true, "\(failed)")
    }

    /// protocol.md §7.1: an API read refused as busy is sent again (up to three times), so one busy refusal costs a
    /// frame and no failure; other reads are not retried and fail.
    @Test(arguments: Self.modelReads)
    func aBusyBoxOnceIsRetriedForTheAPIAndFailsTheRest(read: BoxRead) async throws {
        let stay = try await failOnce(read, .busy)
        let failed = stay.failedReads.filter { $0.what == read.rawValue }
        if [.chargers, .prefs, .status].contains(read) {
            #expect(failed.isEmpty, "\(failed)")
            #expect(count(stay, read) == 4, "the first look, the pull, its retry after the busy refusal, the pull")
        } else {
            #expect(failed.first?.why.contains("E_UNAVAILABLE") == true, "\(stay.failedReads)")
        }
    }

    @Test func aBusyAPIAlwaysIsSentFourTimesThenFails() async throws {
        let report = try await run(
            """
            at 10:01:00 box fail chargers busy always
            launch; inactive; active; view chargers; wait 10s; background
            """
        )
        let stay = try #require(report.stays.first)
        #expect(count(stay, .chargers) == 4)
        #expect(stay.failedReads.map(\.what) == ["chargers"])
        #expect(stay.failedReads.first?.olderAnswerShown == false)
    }

    @Test func aLiftedFaultAnswersAgain() async throws {
        let report = try await run(
            """
            at 10:01:00 box fail chargers refused always; box fail chargers off
            launch; inactive; active; view chargers; wait 10s; background
            """
        )
        #expect(report.stays.first?.failedReads == [])
    }

    // MARK: relay words

    @Test func theRelaysWordsReachThePhoneWithTheirCodes() async throws {
        let report = try await shipped("relay-words")
        #expect(report.errors.isEmpty, "\(report.errors)")
        let stay = try #require(report.stays.last)
        let closes = stay.timeline.filter { $0.kind == .close }
        #expect(closes.map(\.code) == [4409, 4410, 1001, nil])
        // The relay an hour ahead names the next epoch in its 4409; put right, its rotation moves on to the same.
        let wallEpoch = stay.beganAtMs / 3_600_000
        #expect(closes.compactMap { $0.closeReason.flatMap { Int64($0) } } == [wallEpoch + 1, wallEpoch + 1])
        // Each close is followed by the stay going live again: at once after 4409, within 3 s after 4410.
        for (close, reach) in zip(closes.prefix(3), [1_000, 3_700, 2_000] as [Int64]) {
            let live = stay.timeline.first { $0.kind == .live && $0.atMs > close.atMs }
            #expect(live.map { $0.atMs - close.atMs <= reach } == true, "\(close) then \(String(describing: live))")
        }
    }

    /// protocol.md §8.3: 30 joins per address in a fixed 60 s window; refused joins cost nothing more; the window
    /// turns at 10:02:00 here. Issue 24 asks for the stay to be live within 10 s of it.
    @Test func aSpentJoinAllowanceIsSlowDownUntilTheWindowTurns() async throws {
        let report = try await shipped("relay-slow-down")
        #expect(report.errors.isEmpty, "\(report.errors)")
        let stay = try #require(report.stays.last)
        let refusals = stay.timeline.filter { $0.kind == .close && $0.code == 4429 }
        #expect(!refusals.isEmpty && refusals.allSatisfy { $0.closeReason == "slow down" })
        let windowTurns = stay.beganAtMs + 30_000
        #expect(refusals.allSatisfy { $0.atMs < windowTurns }, "no join is refused once the window turned")
        #expect((stay.liveMs ?? .max) <= 40_000, "live within 10 s of the window turning")
    }

    // MARK: a person's command

    /// cache.md §2: anything a person asked for never waits; a command goes on lane 0 beside the queued reads.
    @Test func aPersonsCommandLeavesAtOnceAheadOfQueuedReads() async throws {
        let report = try await shipped("person-command")
        #expect(report.errors.isEmpty, "\(report.errors)")
        let stay = try #require(report.stays.last)
        #expect(
            stay.requests.prefix(4) == [
                "api.req GET /api/loadpoints", "cmd site.mode.set", "api.req GET /api/planner/preferences",
                "plan.get plan",
            ]
        )
        #expect(stay.commands.map(\.command) == ["mode self_consumption", "hold 3000 for 30m", "hold off"])
        #expect(stay.commands.allSatisfy { $0.state == "applied" && $0.error == nil })
        #expect(stay.commands.allSatisfy { ($0.settledAtMs ?? .max) - $0.atMs <= 1_000 })
    }

    @Test func aCommandWithNoSessionUpFailsAtOnceAndSaysSo() async throws {
        let report = try await run(
            """
            box latency 120ms
            at 10:01:00 launch; inactive; active; command mode idle; wait 5s; background
            """
        )
        let command = try #require(report.stays.first?.commands.first)
        #expect(command.state == nil && command.error?.contains("no session is up") == true, "\(command)")
        #expect(command.settledAtMs == command.atMs)
    }

    // MARK: the timeline

    /// protocol.md §8.3: on a return, no message within 2.5 s drops the carrier and dials once more; that handshake
    /// has 3 s (a foreground wake); later handshakes have 12 s.
    @Test func theTimelineShowsTheWakeWatchdogAndTheHandshakeAndHelloDeadlines() async throws {
        let report = try await shipped("connection-timeline")
        #expect(report.stays.count == 3)
        let stay = report.stays[1]
        let began = stay.beganAtMs
        let steps = stay.timeline.map { ($0.kind, $0.atMs - began) }
        #expect(steps.prefix(4).map(\.0) == [.dial, .close, .dial, .handshake])
        #expect(steps[1].1 == 2_500 && steps[2].1 == 2_500, "the watchdog at 2.5 s, and at once a new dial")
        let handshake = try #require(stay.timeline.first { $0.kind == .handshake })
        let deadline = try #require(stay.timeline.first { $0.kind == .close && $0.atMs > handshake.atMs })
        #expect(deadline.atMs - handshake.atMs == 3_000, "a foreground wake's handshake has 3 s")
        #expect(stay.timeline.last?.kind == .close && stay.liveMs != nil)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains(#""kind":"hello_ok""#))

        // A box that leaves one hello unanswered: the hello deadline, 12 s after the handshake finished.
        let unanswered = report.stays[2]
        let greeted = try #require(unanswered.timeline.first { $0.kind == .handshake })
        let helloDeadline = try #require(unanswered.timeline.first { $0.kind == .close })
        #expect(helloDeadline.reason?.contains("did not answer hello in time") == true, "\(helloDeadline)")
        #expect((12_000...12_500).contains(helloDeadline.atMs - greeted.atMs))
        #expect(unanswered.timeline.contains { $0.kind == .helloOK && $0.atMs > helloDeadline.atMs })
        #expect(unanswered.liveMs != nil)
    }

    /// protocol.md §8.3 has the reference app's two backoffs: the carrier redials after `random × min(60 s, 500 ms ·
    /// 2^attempt)`, and a handshake the box leaves unanswered is tried again after `random × min(60 s, 3 s ·
    /// 2^attempt)`. A box that never answers hello waits out the second (the third wait is 10.8 s, where the 500 ms
    /// backoff allows 2 s); a carrier cut once the box answers waits out the first.
    @Test func theTimelineShowsTheBoxsBackoffAfterASilentBoxAndThePathsAfterACut() async throws {
        let report = try await run(
            """
            at 10:01:00 box fail hello timeout always; launch; inactive; active; view now
            wait 3m
            box fail hello off; wait 2m
            box cut; wait 10s; box cut; wait 10s
            background
            """
        )
        #expect(report.errors.isEmpty, "\(report.errors)")
        let timeline = try #require(report.stays.first).timeline
        func waits(after isFailure: (ConnectionStep) -> Bool) -> [Int64] {
            timeline.indices.filter { isFailure(timeline[$0]) && $0 + 1 < timeline.count }.map {
                timeline[$0 + 1].atMs - timeline[$0].atMs
            }
        }
        let silent = waits { $0.kind == .close && $0.reason?.contains("did not answer hello in time") == true }
        #expect(silent.count == 8, "\(timeline)")
        for (failures, wait) in silent.enumerated() {
            #expect(wait < min(60_000, 3_000 << failures), "wait \(failures + 1): \(wait) ms")
        }
        #expect(silent.enumerated().contains { $1 >= min(60_000, 500 << $0) }, "longer than the carrier's: \(silent)")
        let cut = waits { $0.kind == .close && $0.code == 1006 }
        #expect(cut.count == 2 && cut.allSatisfy { $0 < 500 }, "\(cut)")
    }

    @Test func theTimelineIsPrintedOnRequest() async throws {
        let report = try await shipped("relay-words")
        let quiet = ReportPrinter(timeZone: .gmt).text(of: report)
        let shown = ReportPrinter(timeZone: .gmt, showsTimeline: true).text(of: report)
        #expect(!quiet.contains("timeline:"))
        #expect(shown.contains("      09:02:00.000  close 4409 \""))
        #expect(shown.contains("      09:03:00.000  close 1001: the carrier closed (1001)"))
    }

    // MARK: failed reads

    @Test func aFailedReadIsNamedInTheStayTheTextAndTheJSON() async throws {
        let report = try await shipped("failing-read")
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.stays.map { $0.failedReads.count } == [0, 1, 0])
        let failed = try #require(report.stays[1].failedReads.first)
        #expect(
            failed.what == "chargers" && failed.olderAnswerShown
                && failed.why.hasPrefix("the box said nothing on api.req #")
        )
        #expect(failed.atMs - report.stays[1].beganAtMs == 20_616, "the API read's 20 s of silence after it left")
        #expect(report.stays.map { Self.frames($0, "/api/loadpoints") } == [1, 1, 1])
        let printed = ReportPrinter(timeZone: .gmt).text(of: report)
        #expect(printed.contains("    failed read: chargers at 09:03:30.616: the box said nothing on api.req #"))
        #expect(printed.contains("; the older answer is still shown"))
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains(#""olderAnswerShown":true"#) && json.contains(#""what":"chargers""#))
    }

    // MARK: longer spans

    @Test func aReturnAfterAWeekAwayDrawsFromTheFilesAndAsksForEachOnce() async throws {
        let report = try await shipped("week-away")
        #expect(report.errors.isEmpty, "\(report.errors)")
        let (first, back) = (report.stays[0], report.stays[1])
        #expect(first.beganAtMs % 1000 == 250, "a time of day with milliseconds")
        #expect(back.beganAtMs - first.beganAtMs == 7 * 86_400_000 + 120_000)
        let drawn = try #require(back.drawnBeforeConnect)
        #expect(drawn.models["chargers"] == true && drawn.models["plan"] == true && drawn.tracePoints > 0)
        #expect(back.firstContentMs == 0)
        #expect(back.requestsByType == ["api.req": 2, "plan.get": 1, "price.get": 1, "hist.query": 2])
        let printed = ReportPrinter(timeZone: TimeZone(identifier: "Europe/Stockholm") ?? .gmt).text(of: report)
        #expect(printed.contains("stay 2  launch  2026-12-09 10:03:00  "), "a stay on another day names its date")
    }

    // MARK: across runs

    @Test func aSecondRunMeetsTheSameBoxWithWhatTheFirstSealed() async throws {
        let scratch = try ScratchFolder()
        let first = try await ScenarioRunner(
            scenario: BuiltInScenario.load("across-runs-first"),
            name: "first",
            dataFolder: scratch.url
        ).run().report
        #expect(first.errors.isEmpty, "\(first.errors)")
        let second = try await ScenarioRunner(
            scenario: BuiltInScenario.load("across-runs-second"),
            name: "second",
            dataFolder: scratch.url
        ).run().report
        #expect(second.errors.isEmpty, "\(second.errors)")
        let stay = try #require(second.stays.first)
        #expect(stay.drawnBeforeConnect?.isEmpty == false, "the first run's files draw")
        #expect(stay.liveMs != nil, "a known phone, greeted without a pairing code")
        #expect(stay.timeline.compactMap(\.build) == ["ftw-demobox-2"])
        let state = try #require(
            try DemoBoxState.load(folder: scratch.url.appendingPathComponent(ScenarioRunner.boxFolderName).path)
        )
        #expect(state.devices.count == 1, "the same phone, enrolled once")
        #expect(state.build == "ftw-demobox-2")

        // Without the box's state the second run meets a new box: the phone pairs anew and nothing draws.
        try FileManager.default.removeItem(at: scratch.url.appendingPathComponent(ScenarioRunner.boxFolderName))
        let fresh = try await ScenarioRunner(
            scenario: BuiltInScenario.load("across-runs-second"),
            name: "fresh",
            dataFolder: scratch.url
        ).run().report
        #expect(fresh.stays.first?.drawnBeforeConnect?.isEmpty == true)
    }
}
