import FTWClient
import FTWHeadlessTooling
import Foundation
import Testing

/// Issue 31's rules as scenarios against the embedded box on the simulated clock: live is a state of the stream's
/// beats, the retry is said, and every value shown carries its moment and what that rests on.
@Suite struct HonestAgeScenarioTests {
    private func run(_ text: String) async throws -> ScenarioReport {
        try await ScenarioRunner(scenario: ScenarioParser.parse(text), name: "honest").run().report
    }

    /// A 40 s silence of the box's stream (the carrier open): stale 3.5 s after the last beat, live on the next, in
    /// the timeline, the stay's live and stale time, the printed report and `--json`.
    @Test func aSilentBoxGoesStaleAfterTheGapRuleAndLiveOnTheNextBeat() async throws {
        let report = try await run(
            """
            at 10:01:00 launch; inactive; active; view now
            wait 30s; box silent 40s; wait 20s; look; wait 30s; look
            background
            """
        )
        #expect(report.errors.isEmpty, "\(report.errors)")
        let stay = try #require(report.stays.first)
        let stale = try #require(stay.timeline.first { $0.kind == .stale }, "\(stay.timeline)")
        let lastBeat = try #require(stale.cause?.split(separator: " ").compactMap { Int64($0) }.first)
        #expect(lastBeat == 3_500, "stale 3.5 s after the last beat: \(stale.cause ?? "")")
        let resumed = try #require(stay.timeline.first { $0.kind == .live && $0.atMs > stale.atMs })
        #expect(resumed.cause == "a beat arrived after the silence")
        #expect(
            (36_000...41_000).contains(resumed.atMs - stale.atMs),
            "the silence is 40 s: \(resumed.atMs - stale.atMs)"
        )
        #expect(stay.liveTime.staleMs == resumed.atMs - stale.atMs)
        #expect(stay.liveTime.liveMs > 0)
        #expect(
            stay.looks.map { String($0.connection.prefix(5)) } == ["stale", "live "],
            "\(stay.looks.map(\.connection))"
        )

        let silentLook = stay.looks[0]
        let grid = try #require(silentLook.fields["grid_w"])
        #expect(grid.basis == .boxUptime)
        #expect((grid.ageMs(atWallMs: silentLook.atMs) ?? 0) >= 20_000, "the age grows while nothing arrives")

        let printed = ReportPrinter(timeZone: .gmt, showsTimeline: true).text(of: report)
        #expect(printed.contains("stale: no beat for 3500 ms since the last"), "\(printed)")
        #expect(printed.contains("live: a beat arrived after the silence"))
        #expect(printed.contains("    look at 09:01:50.000: stale since"))
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains(#""kind":"stale""#) && json.contains(#""staleMs":"#))
        #expect(json.contains(#""basis":"box_uptime""#))
    }

    /// A box that rebooted streams the readings it kept from devices that have not answered since it started: their
    /// age is unknown (never "just now") until a beat brings the devices' first answers.
    @Test func readingsFromBeforeARebootAreUnknownUntilTheDevicesAnswer() async throws {
        let report = try await run(
            """
            at 10:01:00 launch; inactive; active; view now
            wait 30s; look; box reboot; wait 3s; look; wait 10s; look
            background
            """
        )
        #expect(report.errors.isEmpty, "\(report.errors)")
        let looks = try #require(report.stays.first).looks
        #expect(looks.count == 3)
        #expect(looks[0].fields["grid_w"]?.basis == .boxUptime)
        #expect(looks[1].connection.hasPrefix("live"), "\(looks[1].connection)")
        #expect(looks[1].fields["grid_w"] == .unknown, "\(looks[1].fields)")
        #expect(looks[1].fields["mode"]?.basis == .boxUptime, "the mode is the box's own: as of its last frame")
        #expect(looks[2].fields["grid_w"]?.basis == .boxUptime, "the first beat with the devices' answers")
        #expect((looks[2].fields["grid_w"]?.ageMs(atWallMs: looks[2].atMs) ?? -1) >= 0)
    }

    /// The history window carries its age as every shown value does: a relaunch shows the tiles sealed by the
    /// earlier run (`sealed_file`, their newest value's moment, older with the wall clock, while the box is too busy
    /// to answer), then this run's answer.
    @Test func theHistoryIsAsOfItsSealedTilesUntilThisRunsAnswer() async throws {
        let report = try await run(
            """
            at 10:01:00 launch; inactive; active; view now
            wait 30s; kill
            at 10:20:00 box fail history busy always; launch; inactive; active; view now; look; wait 5s; look
            box fail history off; view battery; refresh battery; wait 10s; look
            background
            """
        )
        #expect(report.errors.isEmpty, "\(report.errors)")
        let first = try #require(report.stays.first?.shownAtEnd?.models["history"])
        #expect(first.basis == .answered, "\(first)")
        let looks = report.stays.dropFirst().flatMap(\.looks)
        #expect(looks.count == 3, "\(report.stays.map(\.looks))")
        let sealed = try #require(looks.first?.models["history"])
        #expect(sealed.basis == .sealedFile && sealed.moment == first.moment, "\(sealed) after \(first)")
        #expect(looks[1].models["history"] == sealed)
        let ages = looks.prefix(2).compactMap { $0.models["history"]?.ageMs(atWallMs: $0.atMs) }
        #expect(ages.count == 2 && ages[1] - ages[0] == 5_000, "the age grows with the wall clock: \(ages)")
        let answered = try #require(looks[2].models["history"])
        #expect(answered.basis == .answered && (answered.moment ?? 0) > (first.moment ?? 0), "\(answered)")
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(json.contains(#""basis":"sealed_file""#))
    }

    /// `device quiet FIELD`: the device behind one field stops answering; once the box's table says it is no longer
    /// live (60 s, the demo box's `staleAfterMs`), that field's age is its last answer's, growing with the wall clock,
    /// while the box's own fields stay fresh.
    @Test func aQuietDevicesFieldAgesWhileTheOthersStayFresh() async throws {
        let report = try await run(
            """
            at 10:01:00 launch; inactive; active; view now
            wait 30s; device quiet pv_w; wait 1m30s; look; device quiet pv_w off; wait 10s; look
            background
            """
        )
        let looks = try #require(report.stays.first).looks
        let quiet = looks[0]
        let pv = try #require(quiet.fields["pv_w"]?.ageMs(atWallMs: quiet.atMs))
        let mode = try #require(quiet.fields["mode"]?.ageMs(atWallMs: quiet.atMs))
        #expect(pv >= 89_000 && mode < 2_000, "pv \(pv) ms, mode \(mode) ms: \(quiet)")
        let answered = try #require(looks[1].fields["pv_w"]?.ageMs(atWallMs: looks[1].atMs))
        #expect(answered < 6_000)
    }

    /// The retry in the report: a close that backs off names the next try, and a look during the wait says
    /// "reconnecting".
    @Test func theBackoffIsSaidInTheTimelineAndOnTheScreen() async throws {
        let report = try await run(
            """
            at 10:01:00 box fail hello timeout always; launch; inactive; active; view now
            wait 40s; look; box fail hello off; wait 1m
            background
            """
        )
        let stay = try #require(report.stays.first)
        let close = try #require(stay.timeline.first { $0.kind == .close && $0.nextTryAtMs != nil })
        let nextDial = try #require(stay.timeline.first { $0.kind == .dial && $0.atMs > close.atMs })
        #expect(close.nextTryAtMs == nextDial.atMs && close.nextAttempt == nextDial.attempt)
        #expect(stay.looks.first?.connection.hasPrefix("reconnecting: attempt") == true, "\(stay.looks)")
    }

    @Test func theNewStepsReadAndTheirMistakesAreNamed() throws {
        let scenario = try ScenarioParser.parse(
            "at 10:00 launch; box silent; box silent 40s; box silent off; device quiet grid_w; device quiet pv_w off; look"
        )
        #expect(
            scenario.steps.dropFirst(2) == [
                .box(.silent(nil)), .box(.silent(.seconds(40))), .box(.silentOff),
                .box(.deviceQuiet(source: "sungrow", true)), .box(.deviceQuiet(source: "sungrow", false)), .look,
            ]
        )
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse("launch; device quiet kitchen_w") }
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse("launch; box silent forever") }
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse("launch; look now") }
    }
}
